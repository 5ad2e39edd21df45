// nbody.cu: the all-pairs gravitational n-body step of GPU Gems 3, ch. 31
// ("Fast N-Body Simulation with CUDA"): float4 positions (w the mass), a
// float3 accumulator, __device__ bodyBodyInteraction and tile_calculation,
// tiles of positions through extern __shared__ float4, 256 threads per block.
// n must be a multiple of 256.
// Usage: nbody [n] [reps]   (prints TIME ms per repetition, PASS)
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <ctime>
#include <cuda_runtime.h>

#define EPS2 0.01f
#define P 256

__device__ float3 bodyBodyInteraction(float4 bi, float4 bj, float3 ai) {
    float3 r;
    // r_ij [3 FLOPS]
    r.x = bj.x - bi.x;
    r.y = bj.y - bi.y;
    r.z = bj.z - bi.z;
    // distSqr = dot(r_ij, r_ij) + EPS^2 [6 FLOPS]
    float distSqr = r.x * r.x + r.y * r.y + r.z * r.z + EPS2;
    // invDistCube = 1/distSqr^(3/2) [4 FLOPS (2 mul, 1 sqrt, 1 inv)]
    float distSixth = distSqr * distSqr * distSqr;
    float invDistCube = 1.0f / sqrtf(distSixth);
    // s = m_j * invDistCube [1 FLOP]
    float s = bj.w * invDistCube;
    // a_i = a_i + s * r_ij [6 FLOPS]
    ai.x += r.x * s;
    ai.y += r.y * s;
    ai.z += r.z * s;
    return ai;
}

__device__ float3 tile_calculation(float4 myPosition, float3 accel) {
    int i;
    extern __shared__ float4 shPosition[];
    for (i = 0; i < blockDim.x; i++) {
        accel = bodyBodyInteraction(myPosition, shPosition[i], accel);
    }
    return accel;
}

__global__ void calculate_forces(float4 *globalX, float4 *globalA, int N) {
    extern __shared__ float4 shPosition[];
    float4 myPosition;
    int i, tile;
    float3 acc = {0.0f, 0.0f, 0.0f};
    int gtid = blockIdx.x * blockDim.x + threadIdx.x;
    myPosition = globalX[gtid];
    for (i = 0, tile = 0; i < N; i += P, tile++) {
        int idx = tile * blockDim.x + threadIdx.x;
        shPosition[threadIdx.x] = globalX[idx];
        __syncthreads();
        acc = tile_calculation(myPosition, acc);
        __syncthreads();
    }
    // save the result in global memory for the integration step
    float4 acc4 = {acc.x, acc.y, acc.z, 0.0f};
    globalA[gtid] = acc4;
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

int main(int argc, char **argv) {
    int N = argc > 1 ? atoi(argv[1]) : 1024;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    if (N % P) {
        fprintf(stderr, "%s: n must be a multiple of %d\n", argv[0], P);
        return 2;
    }
    float4 *h_X = (float4 *)malloc(N * sizeof(float4)), *h_A = (float4 *)malloc(N * sizeof(float4));
    for (int i = 0; i < N; i++) {
        unsigned h = (unsigned)i * 2654435761u;
        h_X[i].x = (float)(h & 0xffff) / 32768.0f - 1.0f;
        h_X[i].y = (float)(h >> 16) / 32768.0f - 1.0f;
        h_X[i].z = (float)((h * 2246822519u) >> 16) / 32768.0f - 1.0f;
        h_X[i].w = 0.5f + (float)((h * 3266489917u) >> 24) / 512.0f;
    }
    float4 *d_X, *d_A;
    cudaMalloc(&d_X, N * sizeof(float4));
    cudaMalloc(&d_A, N * sizeof(float4));
    cudaMemcpy(d_X, h_X, N * sizeof(float4), cudaMemcpyHostToDevice);
    for (int r = 0; r < reps; r++) {
        double t0 = now_ms();
        calculate_forces<<<N / P, P, P * sizeof(float4)>>>(d_X, d_A, N);
        cudaDeviceSynchronize();
        printf("TIME %.4f\n", now_ms() - t0);
    }
    cudaMemcpy(h_A, d_A, N * sizeof(float4), cudaMemcpyDeviceToHost);
    // every body when N <= 4096, else 256 of them, against double sums
    int bad = 0, m = N <= 4096 ? N : 256;
    for (int s = 0; s < m && !bad; s++) {
        int i = N <= 4096 ? s : (int)(((unsigned)s * 7919u) % N);
        double a[3] = {0, 0, 0}, mag = 0;
        for (int j = 0; j < N; j++) {
            double rx = h_X[j].x - h_X[i].x, ry = h_X[j].y - h_X[i].y, rz = h_X[j].z - h_X[i].z;
            double d2 = rx * rx + ry * ry + rz * rz + EPS2, f = h_X[j].w / (d2 * sqrt(d2));
            a[0] += rx * f; a[1] += ry * f; a[2] += rz * f;
            mag += fabs(f) * sqrt(d2);
        }
        float got[3] = {h_A[i].x, h_A[i].y, h_A[i].z};
        for (int k = 0; k < 3; k++)
            if (fabs(got[k] - a[k]) > 1e-5 * mag) {
                printf("FAIL: a[%d][%d] = %g, expected %g\n", i, k, got[k], a[k]);
                bad = 1;
            }
    }
    if (!bad) printf("PASS\n");
    cudaFree(d_X); cudaFree(d_A);
    free(h_X); free(h_A);
    return bad;
}
