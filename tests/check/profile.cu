// profile.cu: CUCC_PROFILE=1 on the lecture's two reductions and on a branch
// that is uniform within each warp (tests/check/CMakeLists.txt matches the
// printed warp and branch efficiencies and the divergent sites' lines).
#include <cstdio>

#define BLOCK 256

__global__ void reduce_divergent(const float *in, float *out) {
  __shared__ float s[BLOCK];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    __syncthreads();
    if (t % (2 * stride) == 0) s[t] += s[t + stride];   // line 14: splits warps
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void reduce_packed(const float *in, float *out) {
  __shared__ float s[BLOCK];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  for (unsigned stride = blockDim.x / 2; stride >= 1; stride >>= 1) {
    __syncthreads();
    if (t < stride) s[t] += s[t + stride];             // line 25: splits only below 32
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void by_warp(float *x) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if ((threadIdx.x / 32) % 2 == 0) x[i] *= 2.0f;       // line 32: whole warps agree
  else x[i] += 1.0f;
}

int main() {
  const int blocks = 64, n = blocks * BLOCK;
  float *h = new float[n], *d, *o, r[blocks];
  for (int i = 0; i < n; i++) h[i] = 1.0f;
  cudaMalloc(&d, n * sizeof(float));
  cudaMalloc(&o, blocks * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  int ok = 1;
  for (int v = 0; v < 2; v++) {
    if (v == 0) reduce_divergent<<<blocks, BLOCK>>>(d, o);
    else reduce_packed<<<blocks, BLOCK>>>(d, o);
    cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost);
    for (int b = 0; b < blocks; b++) ok &= r[b] == BLOCK;
  }
  by_warp<<<blocks, BLOCK>>>(d);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++) ok &= h[i] == ((i % BLOCK) / 32 % 2 == 0 ? 2.0f : 2.0f);
  cudaFree(d);
  cudaFree(o);
  delete[] h;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
