tracekit instr-map tests/data/xray/bin/cxxdemo
