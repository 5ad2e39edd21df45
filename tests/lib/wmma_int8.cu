// nvcuda::wmma with 8-bit integer operands (issue 23): signed and
// unsigned char at 16x16x16, 32x8x16 and 8x32x16, each layout of A, B and
// C, int accumulators; exact against a CPU reference. satf clamps to
// int's range, without it a sum wraps as on a GPU.
#include "wmma.h"

int main() {
  const wmma::layout_t cr = wmma::mem_row_major, cc = wmma::mem_col_major;
  layouts<16, 16, 16, signed char, int, int>("s8 16x16x16", 1.0f, 0);
  run<32, 8, 16, unsigned char, wmma::row_major, wmma::col_major, int, int>("u8 32x8x16", cc, 1.0f, 0);
  run<8, 32, 16, unsigned char, wmma::col_major, wmma::row_major, int, int>("u8 8x32x16", cr, 1.0f, 0);
  run<8, 32, 16, signed char, wmma::row_major, wmma::row_major, int, int>("s8 8x32x16", cc, 1.0f, 0);

  // A·B: 16 products of 1
  const int c[4] = {INT_MAX - 10, INT_MIN, 5, -100};
  const int w[2][4] = {{INT_MIN + 5, INT_MIN + 16, 21, -84}, {INT_MAX, INT_MIN + 16, 21, -84}};
  satf<16, 16, 16, unsigned char, int, int>("satf u8", 1, c, w);
  satf<16, 16, 16, signed char, int, int>("satf s8", -1, c, w);
  if (fails) return 1;
  printf("PASS\n");
  return 0;
}
