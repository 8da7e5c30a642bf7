#!/bin/bash
# instruction counts (valgrind cachegrind, user space) for base vs new bundle, warm caches
cd /work/wt/s14g2
vg() { valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" 2>&1 >/dev/null | grep "I *refs" | awk '{print $NF}'; }
for shape in h10k o10k; do
  for kind in index note; do
    for b in new base; do
      if [ $b = new ]; then CLI=dist/cli.js; V=/tmp/s14g2-$shape; else CLI=bench-out/base-dist/cli.js; V=/tmp/s14g2-$shape-base; fi
      for i in 1 2 3; do node $CLI guard $V --path $([ $kind = index ] && echo MEMORY.md || echo new-note.md) < /tmp/s14g2/$shape-$kind.md > /dev/null; done
      echo "$shape $kind $b $(vg node $CLI guard $V --path $([ $kind = index ] && echo MEMORY.md || echo new-note.md) < /tmp/s14g2/$shape-$kind.md)"
    done
  done
done
echo "node -e 0 $(vg node -e 0)"
