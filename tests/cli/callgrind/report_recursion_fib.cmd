tracekit report --inclusive --format=csv tests/data/callgrind/pass/demo-default.out | grep -E '^[^,]*,[^,]*,(fib|fib.2|is_even|is_odd|is_even.2|phase1),'
