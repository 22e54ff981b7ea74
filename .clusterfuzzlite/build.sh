#!/bin/bash -eu
# ClusterFuzzLite runs this in the project's checkout (the Dockerfile's WORKDIR); the build is OSS-Fuzz's.
exec bash oss-fuzz/build.sh
