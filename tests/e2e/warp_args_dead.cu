// warp_args_dead.cu: a device function that runs as a warp takes its caller's
// lane array as it is, not a copy, where that cannot be seen (issue 20:
// cg::reduce's chain of functions copied its value at every layer): when
// the function only reads it, and when it changes it but the caller's lanes
// are dead after the call (`v = f(v)`, `return f(v)`). Each case where they
// are not dead must still see its own value: `s = f(v)` then v read again,
// `v = g(v, v)` (two names of one array), a call under a partial mask
// (the other lanes keep theirs: `w = bump(w)`), a changed value passed on
// through two layers. Also an xor shuffle of a lane array permuting it in place, in a
// whole warp and a partial one (the last block's lanes past n read 0).
// Each against the CPU's answer, in blocks of 64 (whole rows) and 48.
#include <cstdio>

// changes its parameter: a butterfly sum, every lane the warp's total
__device__ float bfly(float v) {
    for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}
// passes its parameter on, changed there (tail call: dead after)
__device__ float wrap(float v) { return bfly(v); }
// two layers that change it: v doubled here, then passed on
__device__ float twice(float v) {
    v = v * 2.0f;
    return wrap(v);
}
// changes its parameter, called under a partial mask: the active lanes
__device__ float bump(float v) {
    v += 1.0f;
    return v + (float)__popc(__activemask());
}
// two parameters, the first changed
__device__ float pair(float a, float b) {
    a += 1.0f;
    return a + __shfl_xor_sync(0xffffffffu, b, 1);
}

__global__ void args(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    float s = wrap(v);       // v read again below: not changed by the call
    float t = twice(v);      // nor here
    float u = v;
    u = pair(u, u);          // one array under two names: copied
    float w = v;
    if ((threadIdx.x & 31) < 20) w = bump(w);   // the other lanes keep w
    v = wrap(v);             // dead after: passed as it is
    if (i < n) {
        out[5 * i + 0] = s;
        out[5 * i + 1] = t;
        out[5 * i + 2] = u;
        out[5 * i + 3] = w;
        out[5 * i + 4] = v;
    }
}

int main() {
    const int n = 1000;
    float *in, *out;
    cudaMallocManaged(&in, n * sizeof(float));
    cudaMallocManaged(&out, 5 * n * sizeof(float));
    for (int i = 0; i < n; i++) in[i] = (float)((i * 37) % 11);   // small integers: exact sums
    int fails = 0;
    for (int b = 0; b < 2; b++) {
        int bs = b ? 48 : 64;
        cudaMemset(out, 0, 5 * n * sizeof(float));
        args<<<(n + bs - 1) / bs, bs>>>(in, out, n);
        cudaDeviceSynchronize();
        for (int i = 0; i < n && fails < 5; i++) {
            // the warp of thread i: its block's threads in 32s, lanes past n read 0
            int blk = i / bs, tb = i % bs, w0 = blk * bs + tb / 32 * 32, w1 = w0 + 32;
            if (w1 > blk * bs + bs) w1 = blk * bs + bs;
            float tot = 0;
            for (int k = w0; k < w1; k++) tot += k < n ? in[k] : 0.0f;
            int j = i ^ 1;   // the xor partner, in the same warp
            float pj = j < n && j / bs == blk ? in[j] : 0.0f;
            int act = w1 - w0 < 20 ? w1 - w0 : 20;   // the warp's lanes below 20
            float want[5] = {tot, 2 * tot, in[i] + 1.0f + pj, (i % bs & 31) < 20 ? in[i] + 1.0f + act : in[i], tot};
            for (int c = 0; c < 5; c++)
                if (out[5 * i + c] != want[c]) {
                    printf("FAIL block %d thread %d value %d: %g, expected %g\n", bs, i, c, out[5 * i + c], want[c]);
                    fails++;
                }
        }
    }
    if (fails) return 1;
    printf("PASS\n");
    return 0;
}
