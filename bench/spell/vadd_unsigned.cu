// vadd_unsigned.cu: C = A + B with a grid-stride loop over unsigned int
// indices and a fixed grid (256 blocks of 256 threads), as code written for
// "any n" with a grid chosen once often is.
// Usage: vadd_unsigned [n] [reps]   (prints TIME ms per repetition, PASS)
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <cuda_runtime.h>

__global__ void vecAdd(const float *a, const float *b, float *c, unsigned int n) {
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        c[i] = a[i] + b[i];
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

int main(int argc, char **argv) {
    unsigned int n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 100000;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    size_t bytes = (size_t)n * sizeof(float);
    float *h_a = (float *)malloc(bytes), *h_b = (float *)malloc(bytes), *h_c = (float *)malloc(bytes);
    for (unsigned int i = 0; i < n; i++) {
        h_a[i] = (float)(i % 13);
        h_b[i] = (float)(i % 11) * 0.5f;
    }
    float *d_a, *d_b, *d_c;
    cudaMalloc((void **)&d_a, bytes);
    cudaMalloc((void **)&d_b, bytes);
    cudaMalloc((void **)&d_c, bytes);
    cudaMemcpy(d_a, h_a, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(d_b, h_b, bytes, cudaMemcpyHostToDevice);
    for (int r = 0; r < reps; r++) {
        double t0 = now_ms();
        vecAdd<<<256, 256>>>(d_a, d_b, d_c, n);
        cudaDeviceSynchronize();
        printf("TIME %.4f\n", now_ms() - t0);
    }
    cudaMemcpy(h_c, d_c, bytes, cudaMemcpyDeviceToHost);
    unsigned int bad = 0;
    for (unsigned int i = 0; i < n; i++)
        if (h_c[i] != h_a[i] + h_b[i]) {
            if (!bad) printf("FAIL: c[%u] = %g, expected %g\n", i, h_c[i], h_a[i] + h_b[i]);
            bad++;
        }
    if (!bad) printf("PASS\n");
    cudaFree(d_a); cudaFree(d_b); cudaFree(d_c);
    free(h_a); free(h_b); free(h_c);
    return bad ? 1 : 0;
}
