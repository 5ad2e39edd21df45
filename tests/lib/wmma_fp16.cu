// nvcuda::wmma with half and bfloat16 operands (issue 23): every shape
// CUDA has for them (16x16x16, 32x8x16, 8x32x16), each layout of A, B and
// C, float and half accumulators in each combination mma_sync takes (the
// first k step reads C's type, the others D's), satf; checked against a
// CPU reference (the operands are exact in their type; sums in float).
#include "wmma.h"

typedef wmma::row_major R;
typedef wmma::col_major C;

int main() {
  const wmma::layout_t cr = wmma::mem_row_major, cc = wmma::mem_col_major;
  layouts<16, 16, 16, __half, float, float>("half 16x16x16", 0.5f, 1e-6);
  run<32, 8, 16, __half, R, R, float, float>("half 32x8x16 A row B row", cc, 1.0f, 1e-6);
  run<8, 32, 16, __half, C, C, float, float>("half 8x32x16 A col B col", cr, 2.0f, 1e-6);
  // half accumulators: rounded to half after each mma_sync and the scaling
  run<16, 16, 16, __half, R, C, __half, __half>("half acc hh", cr, 0.5f, 3e-3);
  run<32, 8, 16, __half, R, C, float, __half>("half acc fh", cc, 1.0f, 3e-3);
  run<8, 32, 16, __half, C, R, __half, float>("half acc hf", cr, 1.0f, 3e-3);
  run<16, 16, 16, __nv_bfloat16, R, C, float, float>("bf16 16x16x16", cr, 0.5f, 1e-6);
  run<32, 8, 16, __nv_bfloat16, C, R, float, float>("bf16 32x8x16", cc, 1.0f, 1e-6);
  run<8, 32, 16, __nv_bfloat16, R, R, float, float>("bf16 8x32x16", cr, 1.0f, 1e-6);

  // each element of a tile in exactly one lane
  typedef wmma::fragment<wmma::accumulator, 32, 8, 16, __half> f32x8;
  CHECK(elems<f32x8>() * 32 == 256, "num_elements of a 32x8 accumulator");

#ifdef __CUCC__   // (CUDA 13's mma.h takes satf with integer operands only; CUDA 12's with these too)
  // satf: an infinite result becomes the largest finite value, NaN zero
  // (A·B: 16 products of 1)
  const float inf = INFINITY, nan = NAN;
  const float cf[4] = {inf, -inf, nan, 1.0f};
  const float wf[2][4] = {{inf, -inf, nan, 17.0f}, {FLT_MAX, -FLT_MAX, 0.0f, 17.0f}};
  satf<16, 16, 16, __half, float, float>("satf float", __half(1.0f), cf, wf);
  // 65504 + 16 rounds to infinity in half, -65504 + 16 to -65472
  const __half ch[4] = {__half(65504.0f), __half(-65504.0f), __half(nan), __half(1.0f)};
  const __half wh[2][4] = {{__half(inf), __half(-65472.0f), __half(nan), __half(17.0f)},
                           {__half(65504.0f), __half(-65472.0f), __half(0.0f), __half(17.0f)}};
  satf<16, 16, 16, __half, __half, __half>("satf half", __half(1.0f), ch, wh);
#endif
  if (fails) return 1;
  printf("PASS\n");
  return 0;
}
