tracekit check tests/data/csi/pass/valid-other-order.PT
