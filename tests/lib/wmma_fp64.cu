// nvcuda::wmma with double operands (issue 23): 8x8x4, each layout of A,
// B and C, double accumulators (num_elements 2: each element of a tile in
// one lane); checked against a CPU reference.
#include "wmma.h"

int main() {
  layouts<8, 8, 4, double, double, double>("double 8x8x4", 0.5f, 1e-14);
  run<8, 8, 4, double, wmma::row_major, wmma::row_major, double, double>("double A row B row", wmma::mem_col_major, 1.0f, 1e-14);
  typedef wmma::fragment<wmma::accumulator, 8, 8, 4, double> f8x8;
  CHECK(elems<f8x8>() == 2, "num_elements of an 8x8 double accumulator");
  if (fails) return 1;
  printf("PASS\n");
  return 0;
}
