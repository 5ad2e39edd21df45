// launch_spacing.cu: the launch spelled as in the lecture listings,
// `reduce << <nblks, ntpb >> >(d_a, d_b);` (spaces inside <<< and >>>), which
// nvcc accepts; also <<< >>> split over lines, with a template-like
// comparison nearby that must stay a comparison.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

const int ntpb = 128;

__global__ void fill(int *a, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = v + i;
}

int main(int argc, char *argv[]) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  int nblks = (n + ntpb - 1) / ntpb;
  int *d_a, *h_a = new int[n];
  if (cudaMalloc((void**)&d_a, n * sizeof(int)) != cudaSuccess) { printf("FAIL\n"); return 1; }
  fill << <nblks, ntpb >> >(d_a, n, 7);
  bool small = nblks < 2 && n > 0;      // < and > as comparisons
  fill<<<
      nblks, ntpb
  >>>(d_a, n / 2, 100);
  cudaError_t e = cudaGetLastError();
  cudaMemcpy(h_a, d_a, n * sizeof(int), cudaMemcpyDeviceToHost);
  int bad = e != cudaSuccess;
  for (int i = 0; i < n; i++) {
    int want = i < n / 2 ? 100 + i : 7 + i;
    if (h_a[i] != want && bad++ < 10) printf("a[%d] = %d, want %d\n", i, h_a[i], want);
  }
  printf("%d blocks%s\n", nblks, small ? " (one)" : "");
  delete[] h_a;
  cudaFree(d_a);
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad != 0;
}
