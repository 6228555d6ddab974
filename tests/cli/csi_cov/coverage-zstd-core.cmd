# systemd-coredump keeps cores compressed (core.*.zst): read as they are, the same report
d=tests/data/csi_cov/core
tracekit coverage $d/tiny-pie.bin $d/tiny-pie.core.zst | sed -n 1,4p &&
    diff <(tracekit coverage $d/tiny-pie.bin $d/tiny-pie.core.zst | grep -v '^core: ') \
         <(tracekit coverage $d/tiny-pie.bin $d/tiny-pie.core | grep -v '^core: ') && echo same report
