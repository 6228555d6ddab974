for f in ../shared/corpus/csi-thirdparty/v1.4.0/tests/*/*-PT.expected ../shared/corpus/csi-thirdparty/v1.0.0/tests/*/*.tracker.expected; do tracekit check "$f" || exit 1; done
