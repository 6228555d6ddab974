for f in tests/data/corpus/csi-thirdparty/v1.4.0/tests/*/*-PT.expected tests/data/corpus/csi-thirdparty/v1.0.0/tests/*/*.tracker.expected; do tracekit check -v "$f" || exit 1; done
