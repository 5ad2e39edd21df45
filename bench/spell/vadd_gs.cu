// vadd_gs.cu: the vector add of Harris's "An Even Easier Introduction to
// CUDA": unified memory (cudaMallocManaged), int index and stride variables
// in a grid-stride loop, y = x + y in place, 256 threads and
// (N + 255) / 256 blocks.
// Usage: vadd_gs [N] [reps]   (prints TIME ms per repetition, PASS)
#include <iostream>
#include <iomanip>
#include <cstdlib>
#include <cmath>
#include <chrono>

// Kernel function to add the elements of two arrays
__global__
void add(int n, float *x, float *y)
{
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = blockDim.x * gridDim.x;
  for (int i = index; i < n; i += stride)
    y[i] = x[i] + y[i];
}

int main(int argc, char **argv)
{
  int N = argc > 1 ? atoi(argv[1]) : 1 << 20;
  int reps = argc > 2 ? atoi(argv[2]) : 3;
  float *x, *y;

  // Allocate Unified Memory - accessible from CPU or GPU
  cudaMallocManaged(&x, N * sizeof(float));
  cudaMallocManaged(&y, N * sizeof(float));

  // initialize x and y arrays on the host (small integers: exact sums)
  for (int i = 0; i < N; i++) {
    x[i] = (float)(i % 7);
    y[i] = (float)(i % 3);
  }

  int blockSize = 256;
  int numBlocks = (N + blockSize - 1) / blockSize;
  for (int r = 0; r < reps; r++) {
    auto t0 = std::chrono::steady_clock::now();
    add<<<numBlocks, blockSize>>>(N, x, y);
    // Wait for GPU to finish before accessing on host
    cudaDeviceSynchronize();
    auto t1 = std::chrono::steady_clock::now();
    std::cout << "TIME " << std::fixed << std::setprecision(4)
              << std::chrono::duration<double, std::milli>(t1 - t0).count() << std::endl;
  }

  // Check for errors (all values should be y0 + reps * x)
  float maxError = 0.0f;
  for (int i = 0; i < N; i++)
    maxError = fmax(maxError, fabs(y[i] - ((float)(i % 3) + reps * (float)(i % 7))));
  std::cout << "Max error: " << maxError << std::endl;
  std::cout << (maxError == 0.0f ? "PASS" : "FAIL") << std::endl;

  // Free memory
  cudaFree(x);
  cudaFree(y);
  return maxError == 0.0f ? 0 : 1;
}
