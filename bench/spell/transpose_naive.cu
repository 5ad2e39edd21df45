// transpose_naive.cu: the matrix transpose as first written, before shared
// memory tiles: one thread per element on 16 x 16 blocks, a bounds test, then
// odata[x * height + y] = idata[y * width + x] (coalesced reads, strided
// writes). n x n floats.
// Usage: transpose_naive [n] [reps]   (prints TIME ms per repetition, PASS)
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <cuda_runtime.h>

#define BLOCK_DIM 16

__global__ void transposeNaive(float *odata, const float *idata, int width, int height) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height)
        odata[x * height + y] = idata[y * width + x];
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 256;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    int width = n, height = n;
    size_t mem_size = (size_t)width * height * sizeof(float);
    float *h_idata = (float *)malloc(mem_size), *h_odata = (float *)malloc(mem_size);
    for (int j = 0; j < height; j++)
        for (int i = 0; i < width; i++)
            h_idata[j * width + i] = (float)(j * width + i);
    float *d_idata, *d_odata;
    cudaMalloc(&d_idata, mem_size);
    cudaMalloc(&d_odata, mem_size);
    cudaMemcpy(d_idata, h_idata, mem_size, cudaMemcpyHostToDevice);
    dim3 threads(BLOCK_DIM, BLOCK_DIM);
    dim3 grid((width + BLOCK_DIM - 1) / BLOCK_DIM, (height + BLOCK_DIM - 1) / BLOCK_DIM);
    for (int r = 0; r < reps; r++) {
        double t0 = now_ms();
        transposeNaive<<<grid, threads>>>(d_odata, d_idata, width, height);
        cudaDeviceSynchronize();
        printf("TIME %.4f\n", now_ms() - t0);
    }
    cudaMemcpy(h_odata, d_odata, mem_size, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int j = 0; j < width; j++)
        for (int i = 0; i < height; i++)
            if (h_odata[j * height + i] != h_idata[i * width + j]) {
                if (!bad) printf("FAIL: out[%d][%d] = %g, expected %g\n", j, i, h_odata[j * height + i], h_idata[i * width + j]);
                bad++;
            }
    if (!bad) printf("PASS\n");
    cudaFree(d_idata); cudaFree(d_odata);
    free(h_idata); free(h_odata);
    return bad ? 1 : 0;
}
