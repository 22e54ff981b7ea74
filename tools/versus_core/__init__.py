"""tools/versus-core's modules: the builds, the planted bugs, the comparison, speed and reach, time to
detection, and the latest results. tools/versus-core parses the command line and dispatches."""
