// Local arrays kept across __syncthreads(), as people write them:
// - the same in every thread (a histogram every thread counts over shared
//   data, filter weights every thread computes, a struct's array member),
//   changed after a barrier: one copy per block, so each warp must work on
//   its own copy of it (a per-warp copy: region.c, wcopies), not add into
//   the block's once per warp;
// - different in each thread (a register-tiled matmul's accumulators),
//   in blocks that run two warps at a time (16x4, 32x2, ...).
// Each was a wrong answer with no error before (issue 20).
#include <cstdio>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void hist(const int *in, int *out) {   // 1-D, counted after the barrier
  __shared__ int s[64];
  int h[4] = {0, 0, 0, 0};
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  for (int i = 0; i < 64; i++) h[s[i] & 3]++;
  out[t] = h[t & 3] + __shfl_xor_sync(0xffffffff, h[(t + 1) & 3], 1);
}

struct Stats { int n; float w[3]; };
__global__ void weights(const float *in, float *out) {   // 2-D, normalised after the barrier
  __shared__ float tile[8][8];
  float w[3];
  Stats st = {0, {1.f, 2.f, 1.f}};
  for (int i = 0; i < 3; i++) w[i] = (i == 1) ? 2.f : 1.f;
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 8 + threadIdx.x];
  __syncthreads();
  float sum = 0.f;
  for (int i = 0; i < 3; i++) sum += w[i];
  for (int i = 0; i < 3; i++) w[i] /= sum;
  st.w[0] *= 2.f; st.n += 1;
  __syncthreads();
  w[1] += 1.f;   // a second change, in a later region
  int x = threadIdx.x, y = threadIdx.y;
  float l = tile[y][x > 0 ? x - 1 : x], c = tile[y][x], r = tile[y][x < 7 ? x + 1 : x];
  out[y * 8 + x] = w[0] * l + w[1] * c + w[2] * r + st.w[0] * st.n;
}

// TS x TS tile per block, blockDim (TS, TS / RPT): RPT rows per thread
template <int TS, int RPT>
__global__ void mm(const float *A, const float *B, float *C, int M, int N, int K) {
  __shared__ float As[TS][TS], Bs[TS][TS];
  int tx = threadIdx.x, ty = threadIdx.y, row0 = blockIdx.y * TS, col = blockIdx.x * TS + tx;
  float acc[RPT];
  for (int r = 0; r < RPT; r++) acc[r] = 0.f;
  for (int t0 = 0; t0 < K; t0 += TS) {
    for (int r = 0; r < RPT; r++) {
      int ly = ty + r * (TS / RPT), gr = row0 + ly;
      As[ly][tx] = (gr < M && t0 + tx < K) ? A[gr * K + t0 + tx] : 0.f;
      Bs[ly][tx] = (t0 + ly < K && col < N) ? B[(t0 + ly) * N + col] : 0.f;
    }
    __syncthreads();
    for (int k = 0; k < TS; k++) {
      float b = Bs[k][tx];
      for (int r = 0; r < RPT; r++) acc[r] += As[ty + r * (TS / RPT)][k] * b;
    }
    __syncthreads();
  }
  for (int r = 0; r < RPT; r++) {
    int gr = row0 + ty + r * (TS / RPT);
    if (gr < M && col < N) C[gr * N + col] = acc[r];
  }
}

template <int TS, int RPT> int run_mm(int M, int N, int K) {
  float *A, *B, *C;
  CHECK(cudaMallocManaged(&A, M * K * sizeof(float)));
  CHECK(cudaMallocManaged(&B, K * N * sizeof(float)));
  CHECK(cudaMallocManaged(&C, M * N * sizeof(float)));
  for (int i = 0; i < M * K; i++) A[i] = (float)((i * 7) % 11 - 5);
  for (int i = 0; i < K * N; i++) B[i] = (float)((i * 3) % 7 - 3);
  mm<TS, RPT><<<dim3((N + TS - 1) / TS, (M + TS - 1) / TS), dim3(TS, TS / RPT)>>>(A, B, C, M, N, K);
  CHECK(cudaDeviceSynchronize());
  int bad = 0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float s = 0.f;
      for (int k = 0; k < K; k++) s += A[i * K + k] * B[k * N + j];
      if (s != C[i * N + j] && bad++ < 3)
        printf("mm<%d,%d>: C[%d][%d] = %g, want %g\n", TS, RPT, i, j, C[i * N + j], s);
    }
  CHECK(cudaFree(A));
  CHECK(cudaFree(B));
  CHECK(cudaFree(C));
  return bad;
}

int main() {
  int bad = 0;
  int *hi, *ho;
  CHECK(cudaMallocManaged(&hi, 64 * sizeof(int)));
  CHECK(cudaMallocManaged(&ho, 64 * sizeof(int)));
  for (int i = 0; i < 64; i++) hi[i] = i;
  hist<<<1, 64>>>(hi, ho);
  CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < 64; i++)
    if (ho[i] != 32 && bad++ < 3) printf("hist: out[%d] = %d, want 32\n", i, ho[i]);
  float *fi, *fo;
  CHECK(cudaMallocManaged(&fi, 64 * sizeof(float)));
  CHECK(cudaMallocManaged(&fo, 64 * sizeof(float)));
  for (int i = 0; i < 64; i++) fi[i] = (float)(i % 13);
  weights<<<1, dim3(8, 8)>>>(fi, fo);
  CHECK(cudaDeviceSynchronize());
  for (int y = 0; y < 8; y++)
    for (int x = 0; x < 8; x++) {
      float l = fi[y * 8 + (x > 0 ? x - 1 : x)], c = fi[y * 8 + x], r = fi[y * 8 + (x < 7 ? x + 1 : x)];
      float want = 0.25f * l + 1.5f * c + 0.25f * r + 2.f;
      if (fo[y * 8 + x] != want && bad++ < 6) printf("weights: out[%d][%d] = %g, want %g\n", y, x, fo[y * 8 + x], want);
    }
  bad += run_mm<16, 1>(50, 70, 33);
  bad += run_mm<16, 2>(50, 70, 33);
  bad += run_mm<16, 4>(64, 64, 64);
  bad += run_mm<32, 4>(70, 45, 100);
  bad += run_mm<32, 8>(96, 64, 17);
  bad += run_mm<32, 16>(64, 64, 64);
  if (bad) { printf("FAIL: %d wrong\n", bad); return 1; }
  printf("PASS\n");
  return 0;
}
