tracekit check -v tests/data/csi/pass/valid-other-order.PT
