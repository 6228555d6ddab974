# the tables agree: each option's fixed values are named in its help, every format has a text
# and examples for 'tracekit help FORMAT', commands of a format name a known format
tracekit help --lint
