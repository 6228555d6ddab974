# a flame graph of the sample: a frame per call path with its count and share (the tooltip)
tracekit convert --to svg -m examples/fib-xray.bin examples/fib.xray | grep -o '<title>[^<]*</title>' | sed -n 1,4p
tracekit convert --to svg --width 100 examples/fib.xray
