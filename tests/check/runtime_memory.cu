// --check and memory the runtime hands to device code: the device heap
// (malloc and new in a kernel), a texture object's descriptor, host memory
// registered and mapped. Each access was reported out of bounds (no
// allocation the checker knew), and the launch failed; found by the
// held-out hunt. A read past a heap block is still reported: `oob`.
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void heap(int *out, int extra) {
  int *a = (int *)malloc(4 * sizeof(int));
  float *b = new float[3];
  for (int i = 0; i < 4; i++) a[i] = threadIdx.x + i;
  for (int i = 0; i < 3; i++) b[i] = 0.5f * i;
  out[threadIdx.x] = a[3 + extra] + (int)(2.0f * b[2]);
  delete[] b;
  free(a);
}

__global__ void tex(cudaTextureObject_t t, float *out) { out[threadIdx.x] = tex1Dfetch<float>(t, threadIdx.x) * 2; }

__global__ void mapped(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] * 2 + 3;
}

int main(int argc, char **argv) {
  bool oob = argc > 1 && !strcmp(argv[1], "oob");
  int bad = 0, *o;
  cudaMallocManaged(&o, 32 * sizeof(int));
  heap<<<1, 32>>>(o, oob ? 1 : 0);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("heap: launch failed\n");
    return 1;
  }
  for (int t = 0; t < 32; t++) bad += o[t] != t + 3 + 2;
  float h[32], *d, *dout;
  for (int i = 0; i < 32; i++) h[i] = (float)i;
  cudaMalloc(&d, sizeof h);
  cudaMallocManaged(&dout, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeLinear;
  rd.res.linear.devPtr = d;
  rd.res.linear.desc = cudaCreateChannelDesc<float>();
  rd.res.linear.sizeInBytes = sizeof h;
  cudaTextureDesc td = {};
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t t;
  cudaCreateTextureObject(&t, &rd, &td, nullptr);
  tex<<<1, 32>>>(t, dout);
  cudaDeviceSynchronize();
  for (int i = 0; i < 32; i++) bad += dout[i] != 2.0f * i;
  cudaDestroyTextureObject(t);
  int n = 1000;
  float *reg = (float *)malloc(n * sizeof(float)), *dreg;
  for (int i = 0; i < n; i++) reg[i] = 1.0f;
  cudaHostRegister(reg, n * sizeof(float), cudaHostRegisterMapped);
  cudaHostGetDevicePointer((void **)&dreg, reg, 0);
  mapped<<<8, 128>>>(dreg, n);
  cudaDeviceSynchronize();
  for (int i = 0; i < n; i++) bad += reg[i] != 5.0f;
  cudaHostUnregister(reg);
  free(reg);
  cudaFree(d);
  cudaFree(dout);
  cudaFree(o);
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad != 0;
}
