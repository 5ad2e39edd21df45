// blackscholes.cu: European option pricing as NVIDIA's BlackScholes sample
// wrote it before its float2 version: __device__ inline cndGPU (the
// polynomial approximation of the cumulative normal) and BlackScholesBodyGPU
// returning call and put through float references into global memory, the
// fast intrinsics (__expf, __logf, __fdividef, rsqrtf), a grid-stride loop,
// 480 blocks of 128 threads.
// Usage: blackscholes [options] [reps]   (prints TIME ms per repetition, PASS)
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <ctime>
#include <cuda_runtime.h>

// Polynomial approximation of cumulative normal distribution function
__device__ inline float cndGPU(float d) {
    const float A1 = 0.31938153f;
    const float A2 = -0.356563782f;
    const float A3 = 1.781477937f;
    const float A4 = -1.821255978f;
    const float A5 = 1.330274429f;
    const float RSQRT2PI = 0.39894228040143267793994605993438f;

    float K = __fdividef(1.0f, (1.0f + 0.2316419f * fabsf(d)));
    float cnd = RSQRT2PI * __expf(-0.5f * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
    if (d > 0)
        cnd = 1.0f - cnd;
    return cnd;
}

// Black-Scholes formula for both call and put
__device__ inline void BlackScholesBodyGPU(float &CallResult, float &PutResult,
                                           float S,  // Stock price
                                           float X,  // Option strike
                                           float T,  // Option years
                                           float R,  // Riskless rate
                                           float V)  // Volatility rate
{
    float sqrtT, expRT;
    float d1, d2, CNDD1, CNDD2;

    sqrtT = __fdividef(1.0F, rsqrtf(T));
    d1 = __fdividef(__logf(S / X) + (R + 0.5f * V * V) * T, V * sqrtT);
    d2 = d1 - V * sqrtT;

    CNDD1 = cndGPU(d1);
    CNDD2 = cndGPU(d2);

    // Calculate Call and Put simultaneously
    expRT = __expf(-R * T);
    CallResult = S * CNDD1 - X * expRT * CNDD2;
    PutResult = X * expRT * (1.0f - CNDD2) - S * (1.0f - CNDD1);
}

// Process an array of optN options on GPU
__global__ void BlackScholesGPU(float *d_CallResult, float *d_PutResult, float *d_StockPrice,
                                float *d_OptionStrike, float *d_OptionYears, float Riskfree,
                                float Volatility, int optN) {
    // Thread index
    const int tid = blockDim.x * blockIdx.x + threadIdx.x;
    // Total number of threads in execution grid
    const int THREAD_N = blockDim.x * gridDim.x;

    // No matter how small is execution grid or how large OptN is,
    // exactly OptN indices will be processed with perfect memory coalescing
    for (int opt = tid; opt < optN; opt += THREAD_N)
        BlackScholesBodyGPU(d_CallResult[opt], d_PutResult[opt], d_StockPrice[opt],
                            d_OptionStrike[opt], d_OptionYears[opt], Riskfree, Volatility);
}

static double CND(double d) {
    const double A1 = 0.31938153, A2 = -0.356563782, A3 = 1.781477937, A4 = -1.821255978, A5 = 1.330274429;
    const double RSQRT2PI = 0.39894228040143267793994605993438;
    double K = 1.0 / (1.0 + 0.2316419 * fabs(d));
    double cnd = RSQRT2PI * exp(-0.5 * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
    if (d > 0) cnd = 1.0 - cnd;
    return cnd;
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static float RandFloat(unsigned i, unsigned salt, float low, float high) {
    float t = (float)((i * 2654435761u ^ salt) * 2246822519u >> 8) / 16777216.0f;
    return (1.0f - t) * low + t * high;
}

int main(int argc, char **argv) {
    int OPT_N = argc > 1 ? atoi(argv[1]) : 100000;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    const float RISKFREE = 0.02f, VOLATILITY = 0.30f;
    size_t OPT_SZ = OPT_N * sizeof(float);
    float *h_CallResultGPU = (float *)malloc(OPT_SZ), *h_PutResultGPU = (float *)malloc(OPT_SZ);
    float *h_StockPrice = (float *)malloc(OPT_SZ), *h_OptionStrike = (float *)malloc(OPT_SZ);
    float *h_OptionYears = (float *)malloc(OPT_SZ);
    for (int i = 0; i < OPT_N; i++) {
        h_StockPrice[i] = RandFloat(i, 1, 5.0f, 30.0f);
        h_OptionStrike[i] = RandFloat(i, 2, 1.0f, 100.0f);
        h_OptionYears[i] = RandFloat(i, 3, 0.25f, 10.0f);
    }
    float *d_CallResult, *d_PutResult, *d_StockPrice, *d_OptionStrike, *d_OptionYears;
    cudaMalloc((void **)&d_CallResult, OPT_SZ);
    cudaMalloc((void **)&d_PutResult, OPT_SZ);
    cudaMalloc((void **)&d_StockPrice, OPT_SZ);
    cudaMalloc((void **)&d_OptionStrike, OPT_SZ);
    cudaMalloc((void **)&d_OptionYears, OPT_SZ);
    cudaMemcpy(d_StockPrice, h_StockPrice, OPT_SZ, cudaMemcpyHostToDevice);
    cudaMemcpy(d_OptionStrike, h_OptionStrike, OPT_SZ, cudaMemcpyHostToDevice);
    cudaMemcpy(d_OptionYears, h_OptionYears, OPT_SZ, cudaMemcpyHostToDevice);
    for (int r = 0; r < reps; r++) {
        double t0 = now_ms();
        BlackScholesGPU<<<480, 128>>>(d_CallResult, d_PutResult, d_StockPrice, d_OptionStrike,
                                      d_OptionYears, RISKFREE, VOLATILITY, OPT_N);
        cudaDeviceSynchronize();
        printf("TIME %.4f\n", now_ms() - t0);
    }
    cudaMemcpy(h_CallResultGPU, d_CallResult, OPT_SZ, cudaMemcpyDeviceToHost);
    cudaMemcpy(h_PutResultGPU, d_PutResult, OPT_SZ, cudaMemcpyDeviceToHost);
    // the sample's check: L1 norm of the difference against the double formula
    double sum_delta = 0, sum_ref = 0, max_delta = 0;
    for (int i = 0; i < OPT_N; i++) {
        double S = h_StockPrice[i], X = h_OptionStrike[i], T = h_OptionYears[i], R = RISKFREE, V = VOLATILITY;
        double sqrtT = sqrt(T);
        double d1 = (log(S / X) + (R + 0.5 * V * V) * T) / (V * sqrtT), d2 = d1 - V * sqrtT;
        double expRT = exp(-R * T);
        double call = S * CND(d1) - X * expRT * CND(d2), put = X * expRT * (1.0 - CND(d2)) - S * (1.0 - CND(d1));
        double dc = fabs(call - h_CallResultGPU[i]), dp = fabs(put - h_PutResultGPU[i]);
        sum_delta += dc + dp;
        sum_ref += fabs(call) + fabs(put);
        if (dc > max_delta) max_delta = dc;
        if (dp > max_delta) max_delta = dp;
    }
    double L1norm = sum_delta / sum_ref;
    printf("L1 norm: %E, max abs error: %E\n", L1norm, max_delta);
    int ok = L1norm < 1e-6 && max_delta < 1e-3;
    printf(ok ? "PASS\n" : "FAIL: L1 norm or error too large\n");
    cudaFree(d_CallResult); cudaFree(d_PutResult); cudaFree(d_StockPrice);
    cudaFree(d_OptionStrike); cudaFree(d_OptionYears);
    free(h_CallResultGPU); free(h_PutResultGPU); free(h_StockPrice); free(h_OptionStrike); free(h_OptionYears);
    return ok ? 0 : 1;
}
