// The benchmark scripts' own arithmetic (no GPU): each --self-test checks its parsing
// and counting on hand-written input with known answers and exits 1 when one is off.
// RUN: %python %S/../../bench/perf_record.py --self-test | FileCheck %s --check-prefix=FACTS
// RUN: %python %S/../../bench/ptx_loop_census.py --self-test
// RUN: %python %S/../../bench/pipeline_tiles_merge.py --self-test
// FACTS: perf_record self-test: ok
