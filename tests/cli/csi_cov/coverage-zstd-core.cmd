# systemd-coredump keeps cores compressed (core.*.zst): read as they are, the same report
d=tests/data/csi_cov/core
tracekit coverage $d/tiny-pie.bin $d/tiny-pie.core.zst | head -4 &&
    diff <(tracekit coverage $d/tiny-pie.bin $d/tiny-pie.core.zst | grep -v '^core: ') \
         <(tracekit coverage $d/tiny-pie.bin $d/tiny-pie.core | grep -v '^core: ') && echo same report
