// openmp.cu: OpenMP in host code (-Xcompiler -fopenmp): <omp.h> must parse,
// the pragmas must be compiled (_OPENMP, a team of OMP_NUM_THREADS=3) and
// libgomp linked. The kernel's results are checked against an OpenMP loop.
#include <omp.h>
#include <cstdio>
#include <vector>

__global__ void square(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * in[i];
}

int main() {
#ifndef _OPENMP
  printf("FAIL: _OPENMP is not defined\n");
  return 1;
#else
  const int n = 1 << 16;
  std::vector<float> in(n), out(n), ref(n);
  int team = 0;
#pragma omp parallel
  {
#pragma omp single
    team = omp_get_num_threads();
#pragma omp for
    for (int i = 0; i < n; i++) {
      in[i] = (float)(i % 100) * 0.5f;
      ref[i] = in[i] * in[i];
    }
  }
  float *din, *dout;
  cudaMalloc(&din, n * sizeof(float));
  cudaMalloc(&dout, n * sizeof(float));
  cudaMemcpy(din, in.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  square<<<(n + 255) / 256, 256>>>(din, dout, n);
  cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost);
  int bad = 0;
#pragma omp parallel for reduction(+ : bad)
  for (int i = 0; i < n; i++) bad += out[i] != ref[i];
  printf("OpenMP team of %d, %d wrong\n", team, bad);
  if (team != 3 || bad) {
    printf("FAIL\n");
    return 1;
  }
  printf("PASS\n");
  return 0;
#endif
}
