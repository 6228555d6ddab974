# the same report in each unit: the title and every column say the unit, the values are in it
for u in s ms us ns; do tracekit report --unit $u --top 2 -m examples/fib-xray.bin examples/fib.xray; done
tracekit report --format csv --unit ms --top 1 examples/fib.xray
tracekit convert --to dot --unit ns examples/fib.xray | grep label= | sed -n 1,2p
