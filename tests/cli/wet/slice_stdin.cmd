cat tests/data/wet/pass/foo1.wet | tracekit slice - --criterion 2118:0 --deps data
