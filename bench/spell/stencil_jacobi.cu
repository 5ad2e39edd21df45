// stencil_jacobi.cu: Jacobi iteration of the 2-D Laplace equation, a 5-point
// stencil as course exercises write it: one thread per point, 16 x 16 blocks,
// interior points only (if (i > 0 && i < nx - 1 && j > 0 && j < ny - 1)), the
// two grids swapped after each step. 10 steps per repetition on an n x n grid
// whose top edge is held at 1.
// Usage: stencil_jacobi [n] [reps]   (prints TIME ms per repetition, PASS)
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <ctime>
#include <cuda_runtime.h>

#define STEPS 10

__global__ void jacobi(const float *u, float *unew, int nx, int ny) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i > 0 && i < nx - 1 && j > 0 && j < ny - 1) {
        unew[j * nx + i] = 0.25f * (u[j * nx + (i - 1)] + u[j * nx + (i + 1)] +
                                    u[(j - 1) * nx + i] + u[(j + 1) * nx + i]);
    }
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 100;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    int nx = n, ny = n;
    size_t bytes = (size_t)nx * ny * sizeof(float);
    float *h_u = (float *)malloc(bytes), *ref = (float *)malloc(bytes), *tmp = (float *)malloc(bytes);
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++)
            h_u[j * nx + i] = j == 0 ? 1.0f : (float)(((unsigned)(j * nx + i) * 2654435761u) >> 24) / 256.0f;
    float *d_u, *d_unew;
    cudaMalloc(&d_u, bytes);
    cudaMalloc(&d_unew, bytes);
    cudaMemcpy(d_u, h_u, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(d_unew, h_u, bytes, cudaMemcpyHostToDevice);   // the same boundary in both
    dim3 block(16, 16);
    dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y);
    for (int r = 0; r < reps; r++) {
        double t0 = now_ms();
        for (int s = 0; s < STEPS; s++) {
            jacobi<<<grid, block>>>(d_u, d_unew, nx, ny);
            float *t = d_u; d_u = d_unew; d_unew = t;
        }
        cudaDeviceSynchronize();
        printf("TIME %.4f\n", now_ms() - t0);
    }
    cudaMemcpy(h_u, d_u, bytes, cudaMemcpyDeviceToHost);
    // the same steps on the host
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++)
            ref[j * nx + i] = tmp[j * nx + i] = j == 0 ? 1.0f : (float)(((unsigned)(j * nx + i) * 2654435761u) >> 24) / 256.0f;
    for (int s = 0; s < reps * STEPS; s++) {
        for (int j = 1; j < ny - 1; j++)
            for (int i = 1; i < nx - 1; i++)
                tmp[j * nx + i] = 0.25f * (ref[j * nx + i - 1] + ref[j * nx + i + 1] + ref[(j - 1) * nx + i] + ref[(j + 1) * nx + i]);
        float *t = ref; ref = tmp; tmp = t;
    }
    int bad = 0;
    for (size_t k = 0; k < (size_t)nx * ny; k++)
        if (fabsf(h_u[k] - ref[k]) > 1e-6f) {
            if (!bad) printf("FAIL: u[%zu] = %g, expected %g\n", k, h_u[k], ref[k]);
            bad++;
        }
    if (!bad) printf("PASS\n");
    cudaFree(d_u); cudaFree(d_unew);
    free(h_u); free(ref); free(tmp);
    return bad ? 1 : 0;
}
