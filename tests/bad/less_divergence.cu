// Less Thread Divergence
// less_divergence.cu
#include <iostream>
#include <iomanip>
#include <cstdlib>
#include <cuda_runtime.h>
// to remove intellisense highlighting
#include <device_launch_parameters.h>
#ifndef __CUDACC__
#define __CUDACC__
#endif
#include <device_functions.h>
const int ntpb = 512;
__global__ void reduce(float* a, float* b) {
int i = blockIdx.x * blockDim.x + threadIdx.x;
int t = threadIdx.x;
__shared__ float s[ntpb];
s[t] = a[i];
__syncthreads();
for (int stride = blockDim.x >> 1; stride > 0; stride >>= 1) {
if (t < stride)
s_c[t] += s_c[t + stride];
__syncthreads();
}
if (t == 0)
b[blockIdx.x] = s[0];
}
int main(int argc, char* argv[]) {
if (argc != 2) {
std::cerr << argv[0]
<< ": invalid no of arguments\n"
<< "Usage: " << argv[0]
<< " no_of_elements\n";
return 1;
}
int n = atoi(argv[1]);
// determine the number of blocks required
int nblks = (n + ntpb - 1) / ntpb;
// allocate host memory
float* h_a = new float[nblks * ntpb];
float* h_b = new float[nblks];
// initialize host memory
for (int i = 0; i < n; i++)
h_a[i] = float(std::rand()) / RAND_MAX;
for (int i = n; i < nblks * ntpb; i++)
h_a[i] = 0.0f;
float h_sum = 0.0f;
for (int i = 0; i < n; i++)
h_sum += h_a[i];
// allocate device memory
float* d_a; // full device vector
float* d_b; // device sum per block
cudaMalloc((void**)&d_a, nblks * ntpb * sizeof(float));
cudaMalloc((void**)&d_b, nblks * sizeof(float));
cudaMemcpy(d_a, h_a, nblks * ntpb * sizeof(float), cudaMemcpyHostToDevice);
// reduce to partial sums
reduce << <nblks, ntpb >> >(d_a, d_b);
// copy from device to host memory
cudaMemcpy(h_b, d_b, nblks * sizeof(float), cudaMemcpyDeviceToHost);
float d_sum = 0.0f;
for (int i = 0; i < nblks; i++)
d_sum += h_b[i];
// report sums
std::cout << std::fixed << std::setprecision(1);
std::cout << "Host sum = " << h_sum << std::endl;
std::cout << "Device sum = " << d_sum << std::endl;
// deallocate memory
delete[] h_a;
delete[] h_b;
cudaFree(d_a);
cudaFree(d_b);
}
