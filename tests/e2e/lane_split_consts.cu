// lane_split_consts.cu: a warp's lanes split by a constant spelled with
// sizeof and nested division, as NVIDIA's dmmaTensorCoreGemm spells it
// (`laneId / CHUNK_COPY_LINE_LANES`, `32 / ((32 * sizeof(int4)) / (K *
// sizeof(double)))`): each warp copies 512 bytes, 16 per lane, as lines of
// N doubles. Where a line is the whole warp's (N = 64: 32 lanes a line)
// the line is the same in every lane and the lane within it is base +
// lane (frontend/eval.c folds the constant for lowering/shape.c); with
// shorter lines (16, 8 lanes) a warp holds several. Then constant
// conditions as C computes them (wrapping, truncation, signedness, the
// side of ?: taken), which lowering/fold.c decides before any other pass.
// Every block shape takes a different version of the region; all checked
// against the CPU.
#include <cstdio>

#define WARP_SIZE 32
#define WARP_COPY_BYTES (WARP_SIZE * sizeof(int4))
#define LINES_PER_WARP(n) (WARP_COPY_BYTES / ((n) * sizeof(double)))
#define LINE_LANES(n) (WARP_SIZE / LINES_PER_WARP(n))

template <int N>
__global__ void copy_lines(const double *src, double *dst, int *who) {
  const unsigned t = threadIdx.y * blockDim.x + threadIdx.x;
  const unsigned g = blockIdx.x * (blockDim.x * blockDim.y) + t;
  const unsigned laneId = t % WARP_SIZE, warpId = g / WARP_SIZE;
  const int lanes = 32 / ((32 * sizeof(int4)) / (N * sizeof(double)));
  const unsigned line = laneId / lanes, col = laneId % lanes;
  const double *s = src + warpId * (WARP_COPY_BYTES / sizeof(double)) + line * N;
  double *d = dst + warpId * (WARP_COPY_BYTES / sizeof(double)) + line * N;
  *((int4 *)d + col) = *((const int4 *)s + col);
  who[g] = (int)(laneId / LINE_LANES(N) * 100 + laneId % LINE_LANES(N)) + 1000 * (int)line;
}

// C's values of integer constant expressions (the same text on the host)
#define CONSTS(X)                                                              \
  X(0u - 1u == 4294967295u) X((unsigned short)70000 == 4464)                   \
  X((signed char)200 == -56) X((unsigned char)300 == 44) X(-7 / 2 == -3)       \
  X(-7 % 2 == -1) X(-1 >> 1 == -1) X((1ull << 63) > 0)                         \
  X((long long)(1ull << 63) < 0) X(~0u == 4294967295u) X((!5) == 0)              \
  X((3 > 2) + (2 > 3) == 1) X(sizeof(int4) * 2 == 32) X((int)2.9 == 2)         \
  X((int)-2.9 == -2) X((unsigned)3.99 == 3) X((bool)0.5)                       \
  X(!(-1 < 0u)) X(-1 < 0) X((sizeof(double) > 4 ? 16 : 32) == 16)                 \
  X(32 / ((32 * sizeof(int4)) / (16 * sizeof(double))) == 8)                 \
  X((1 || 0) && !(0 && 1)) X((unsigned)-1 / 2 == 2147483647u)                 \
  X((unsigned char)255 + 1 == 256) X((short)-32768 - 1 == -32769)             \
  X((0x7fffffffffffffffll >> 62) == 1) X((5u - 7) % 3 == 2)

#define AS_BIT(c) if (c) m |= bit; bit <<= 1;

__global__ void consts(unsigned *out) {
  unsigned m = 0, bit = 1;
  CONSTS(AS_BIT)
  out[threadIdx.x] = m + threadIdx.x;
}

static int fails;
static void expect(const char *what, bool ok) {
  if (!ok && fails++ < 10) printf("FAIL %s\n", what);
}

template <int N>
static void run(dim3 b, int nb, double *src, double *dst, int *who) {
  int nt = b.x * b.y, nw = nb * nt / 32;
  for (int i = 0; i < nw * 64; i++) dst[i] = -1;
  copy_lines<N><<<nb, b>>>(src, dst, who);
  cudaDeviceSynchronize();
  bool ok = true;
  for (int i = 0; i < nw * 64; i++) ok &= dst[i] == src[i];
  int lanes = 32 / (512 / (N * 8));
  for (int g = 0; g < nb * nt; g++) {
    int l = g % nt % 32;
    ok &= who[g] == l / lanes * 1100 + l % lanes;
  }
  char tag[64];
  snprintf(tag, sizeof tag, "copy_lines<%d>, block %ux%u", N, b.x, b.y);
  expect(tag, ok);
}

int main() {
  const int T = 1536;
  double *src, *dst;
  int *who;
  unsigned *out;
  cudaMallocManaged(&src, T * 2 * sizeof(double));
  cudaMallocManaged(&dst, T * 2 * sizeof(double));
  cudaMallocManaged(&who, T * sizeof(int));
  cudaMallocManaged(&out, 64 * sizeof(unsigned));
  for (int i = 0; i < T * 2; i++) src[i] = i * 0.5 + 1;
  dim3 shapes[] = {dim3(64), dim3(96), dim3(32, 2), dim3(16, 4), dim3(8, 4)};
  for (dim3 b : shapes) {
    int nb = T / (b.x * b.y);
    run<64>(b, nb, src, dst, who);
    run<32>(b, nb, src, dst, who);
    run<16>(b, nb, src, dst, who);
  }
  unsigned m = 0, bit = 1;
  CONSTS(AS_BIT)
  consts<<<1, 64>>>(out);
  cudaDeviceSynchronize();
  bool ok = true;
  for (int i = 0; i < 64; i++) ok &= out[i] == m + i;
  if (!ok) printf("consts: %#x, expected %#x\n", out[0], m);
  expect("consts", ok && m == (1u << 27) - 1);
  printf("%s\n", fails ? "FAIL" : "PASS");
  return fails != 0;
}
