#!/bin/bash
cd /work/wt/s14g2
vg() { valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" 2>&1 >/dev/null | grep "I *refs" | awk '{print $NF}'; }
rm -rf /tmp/s14g2-o1k-base; cp -a /tmp/s14g2-o1k /tmp/s14g2-o1k-base; rm -rf /tmp/s14g2-o1k-base/.memlint
for shape in o10k o1k; do
  for rep in 1 2; do
  for b in new base; do
    if [ $b = new ]; then CLI=dist/cli.js; V=/tmp/s14g2-$shape; else CLI=bench-out/base-dist/cli.js; V=/tmp/s14g2-$shape-base; fi
    for i in 1 2; do node $CLI guard $V --path new-note.md < /tmp/s14g2/$shape-note.md > /dev/null; done
    echo "$shape note $b $(vg node $CLI guard $V --path new-note.md < /tmp/s14g2/$shape-note.md)"
  done
  done
done
