// stencil_clamp_if.cu: a 5-point smoothing stencil with replicated borders,
// the neighbours' coordinates clamped with ifs after their declarations
// (`int xl = x - 1; if (xl < 0) xl = 0;`), as in many introductory image
// and heat-diffusion codes; 32 x 8 blocks, an n x n float grid.
// Usage: stencil_clamp_if [n] [reps]   (prints TIME ms per repetition, PASS)
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <cuda_runtime.h>

__global__ void smooth(const float *in, float *out, int nx, int ny) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < nx && y < ny) {
        int xl = x - 1;
        if (xl < 0) xl = 0;
        int xr = x + 1;
        if (xr > nx - 1) xr = nx - 1;
        int yu = y - 1;
        if (yu < 0) yu = 0;
        int yd = y + 1;
        if (yd >= ny) yd = ny - 1;
        out[y * nx + x] = 0.5f * in[y * nx + x] +
                          0.125f * (in[y * nx + xl] + in[y * nx + xr] + in[yu * nx + x] + in[yd * nx + x]);
    }
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 256;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    int nx = n, ny = n;
    size_t sz = (size_t)nx * ny;
    float *h_in = (float *)malloc(sz * sizeof(float)), *h_out = (float *)malloc(sz * sizeof(float));
    for (size_t i = 0; i < sz; i++) h_in[i] = (float)(((unsigned)i * 2654435761u) >> 24) / 64.0f;
    float *d_in, *d_out;
    cudaMalloc(&d_in, sz * sizeof(float));
    cudaMalloc(&d_out, sz * sizeof(float));
    cudaMemcpy(d_in, h_in, sz * sizeof(float), cudaMemcpyHostToDevice);
    dim3 block(32, 8);
    dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y);
    for (int r = 0; r < reps; r++) {
        double t0 = now_ms();
        smooth<<<grid, block>>>(d_in, d_out, nx, ny);
        cudaDeviceSynchronize();
        printf("TIME %.4f\n", now_ms() - t0);
    }
    cudaMemcpy(h_out, d_out, sz * sizeof(float), cudaMemcpyDeviceToHost);
    long bad = 0;
    for (int y = 0; y < ny; y++)
        for (int x = 0; x < nx; x++) {
            int xl = x > 0 ? x - 1 : 0, xr = x < nx - 1 ? x + 1 : nx - 1;
            int yu = y > 0 ? y - 1 : 0, yd = y < ny - 1 ? y + 1 : ny - 1;
            const float *a = h_in;
            float want = 0.5f * a[(size_t)y * nx + x] +
                         0.125f * (a[(size_t)y * nx + xl] + a[(size_t)y * nx + xr] + a[(size_t)yu * nx + x] + a[(size_t)yd * nx + x]);
            float got = h_out[(size_t)y * nx + x];
            if (got != want) {
                if (!bad) printf("FAIL: out(%d, %d) = %g, expected %g\n", x, y, got, want);
                bad++;
            }
        }
    if (!bad) printf("PASS\n");
    cudaFree(d_in); cudaFree(d_out);
    free(h_in); free(h_out);
    return bad ? 1 : 0;
}
