# a DCFG from a pipe is read from the input its format was detected on (it cannot be opened
# again: "a DCFG is a JSON object; found number" until 2026-11-28)
tracekit report --table summary <(bzcat tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2)
