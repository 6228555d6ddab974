tracekit extract tests/data/xray/bin/cxxdemo
