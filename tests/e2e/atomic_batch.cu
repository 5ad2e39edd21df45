// atomic_batch.cu: atomicAdds whose results the threads read (slots in an
// output array, a work queue), which a block's warps may do at once
// (lowering/batch.c, runtime/src/warps.c; CUCC_BATCH=1 forces it, 0 never).
// Whatever the schedule, every slot must be handed out exactly once and the
// counter must end at the total: each kernel's output is checked as a set
// against a CPU reference, and its counter exactly.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

// NVIDIA's warp-aggregated increment: the active lanes' leader takes the
// warp's slots, each lane its own from the leader's result
__device__ int agg_inc(int *ctr) {
    unsigned active = __activemask();
    int leader = __ffs(active) - 1;
    int change = __popc(active);
    unsigned rank = __popc(active & ((1u << (threadIdx.x % 32)) - 1));
    int base;
    if (rank == 0) base = atomicAdd(ctr, change);
    base = __shfl_sync(active, base, leader);
    return base + rank;
}

// filter in a grid-stride loop, through agg_inc
__global__ void filter_agg(int *dst, int *cnt, const int *src, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        if (src[i] % 3 == 0) dst[agg_inc(cnt)] = src[i];
}

// one atomic per thread, 64-bit counter, a barrier and a block sum around it
__global__ void filter_each(int *dst, unsigned long long *cnt, int *bsum, const int *src, int n) {
    __shared__ int s;
    if (threadIdx.x == 0) s = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && (src[i] & 1)) {
        unsigned long long k = atomicAdd(cnt, 1ull);
        dst[k] = src[i];
        atomicAdd(&s, 1);
    }
    __syncthreads();
    if (threadIdx.x == 0) bsum[blockIdx.x] = s;
}

// a work queue: each warp's lane 0 takes 32 items at a time, until none is left
__global__ void queue(unsigned *next, int *out, int n) {
    unsigned lane = threadIdx.x % 32;
    for (;;) {
        unsigned start;
        if (lane == 0) start = atomicAdd(next, 32u);
        start = __shfl_sync(0xffffffffu, start, 0);
        if (start >= (unsigned)n) break;
        unsigned i = start + lane;
        if (i < (unsigned)n) out[i] += 1 + (int)(i % 7);
    }
}

// 16 x 16 blocks (half rows), a tile transposed through shared memory, then
// one atomic per kept thread
__global__ void pick2d(const int *in, int *out, int *cnt, int w, int h) {
    __shared__ int tile[16][17];
    int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = (x < w && y < h) ? in[y * w + x] : -1;
    __syncthreads();
    int v = tile[threadIdx.x][threadIdx.y];
    if (v >= 0 && v % 5 == 0) out[atomicAdd(cnt, 1)] = v;
}

// a slot in one of 8 bins, the counter's address by thread (left as it is)
__global__ void bins(const int *src, int *cnt, int *out, int n, int cap) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int b = src[i] & 7;
        int slot = atomicAdd(&cnt[b], 1);
        if (slot < cap) out[b * cap + slot] = src[i];
    }
}

// a block's ticket, taken by its first thread only (left as it is)
__global__ void ticket(int *t, int *order) {
    __shared__ int mine;
    if (threadIdx.x == 0) mine = atomicAdd(t, 1);
    __syncthreads();
    if (threadIdx.x == 1) order[mine] = blockIdx.x;
}

static int fails;
static void check(bool ok, const char *what) {
    if (!ok) {
        printf("FAIL: %s\n", what);
        fails++;
    }
}

int main() {
    const int n = 100003, threads = 256;
    std::vector<int> h(n);
    for (int i = 0; i < n; i++) h[i] = (int)(((unsigned)i * 2654435761u) >> 8);   // distinct
    int *src, *dst, *cnt, *bsum, *out, *order;
    unsigned long long *cnt64;
    unsigned *next;
    cudaMalloc(&src, n * sizeof(int));
    cudaMalloc(&dst, n * sizeof(int));
    cudaMalloc(&cnt, sizeof(int));
    cudaMalloc(&cnt64, sizeof(unsigned long long));
    cudaMalloc(&next, sizeof(unsigned));
    cudaMalloc(&out, n * sizeof(int));
    int blocks = (n + threads - 1) / threads;
    cudaMalloc(&bsum, blocks * sizeof(int));
    cudaMalloc(&order, blocks * sizeof(int));
    cudaMemcpy(src, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);

    // filter_agg, twice (the second run after the first's blocks warmed the choice)
    std::vector<int> want;
    for (int v : h)
        if (v % 3 == 0) want.push_back(v);
    std::sort(want.begin(), want.end());
    for (int rep = 0; rep < 2; rep++) {
        cudaMemset(cnt, 0, sizeof(int));
        cudaMemset(dst, 0xff, n * sizeof(int));
        filter_agg<<<37, threads>>>(dst, cnt, src, n);
        int got = 0;
        cudaMemcpy(&got, cnt, sizeof(int), cudaMemcpyDeviceToHost);
        std::vector<int> g(n);
        cudaMemcpy(g.data(), dst, n * sizeof(int), cudaMemcpyDeviceToHost);
        check(got == (int)want.size(), "filter_agg: count");
        g.resize(std::min(got, n));
        std::sort(g.begin(), g.end());
        check(g == want, "filter_agg: the kept elements, each once");
    }

    // filter_each
    std::vector<int> odd;
    for (int v : h)
        if (v & 1) odd.push_back(v);
    std::sort(odd.begin(), odd.end());
    cudaMemset(cnt64, 0, sizeof(unsigned long long));
    filter_each<<<blocks, threads>>>(dst, cnt64, bsum, src, n);
    unsigned long long got64 = 0;
    cudaMemcpy(&got64, cnt64, sizeof got64, cudaMemcpyDeviceToHost);
    check(got64 == odd.size(), "filter_each: count");
    std::vector<int> g(n), bs(blocks);
    cudaMemcpy(g.data(), dst, n * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(bs.data(), bsum, blocks * sizeof(int), cudaMemcpyDeviceToHost);
    g.resize(std::min<unsigned long long>(got64, n));
    std::sort(g.begin(), g.end());
    check(g == odd, "filter_each: the kept elements, each once");
    for (int b = 0; b < blocks; b++) {
        int w = 0;
        for (int i = b * threads; i < n && i < (b + 1) * threads; i++) w += h[i] & 1;
        if (bs[b] != w) {
            check(false, "filter_each: a block's own count");
            break;
        }
    }

    // queue: every item exactly once
    cudaMemset(next, 0, sizeof(unsigned));
    cudaMemset(out, 0, n * sizeof(int));
    queue<<<13, 128>>>(next, out, n);
    std::vector<int> q(n);
    cudaMemcpy(q.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost);
    bool qok = true;
    for (int i = 0; i < n; i++) qok &= q[i] == 1 + i % 7;
    check(qok, "queue: each item taken once");
    unsigned nx = 0;
    cudaMemcpy(&nx, next, sizeof nx, cudaMemcpyDeviceToHost);
    check(nx >= (unsigned)n && nx < (unsigned)n + 13u * 4u * 32u + 32u, "queue: the counter's end");

    // pick2d: 100 x 70 values 0..6999, the multiples of 5 each once
    {
        const int w = 100, hh = 70;
        std::vector<int> seq(w * hh);
        for (int i = 0; i < w * hh; i++) seq[i] = i;
        cudaMemcpy(out, seq.data(), w * hh * sizeof(int), cudaMemcpyHostToDevice);
        cudaMemset(cnt, 0, sizeof(int));
        pick2d<<<dim3(7, 5), dim3(16, 16)>>>(out, dst, cnt, w, hh);
        int k = 0;
        cudaMemcpy(&k, cnt, sizeof(int), cudaMemcpyDeviceToHost);
        std::vector<int> p(k > 0 && k <= w * hh ? k : 0);
        cudaMemcpy(p.data(), dst, p.size() * sizeof(int), cudaMemcpyDeviceToHost);
        std::sort(p.begin(), p.end());
        std::vector<int> want5;
        for (int i = 0; i < w * hh; i += 5) want5.push_back(i);
        check(p == want5, "pick2d: the multiples of 5, each once");
    }

    // bins: each bin's elements, each once
    {
        const int cap = n;
        int *bcnt, *bout;
        cudaMalloc(&bcnt, 8 * sizeof(int));
        cudaMalloc(&bout, 8 * (size_t)cap * sizeof(int));
        cudaMemset(bcnt, 0, 8 * sizeof(int));
        bins<<<blocks, threads>>>(src, bcnt, bout, n, cap);
        int hc[8];
        cudaMemcpy(hc, bcnt, sizeof hc, cudaMemcpyDeviceToHost);
        bool bok = true;
        for (int b = 0; b < 8 && bok; b++) {
            std::vector<int> want_b, got_b(hc[b] >= 0 && hc[b] <= cap ? hc[b] : 0);
            for (int v : h)
                if ((v & 7) == b) want_b.push_back(v);
            cudaMemcpy(got_b.data(), bout + (size_t)b * cap, got_b.size() * sizeof(int), cudaMemcpyDeviceToHost);
            std::sort(got_b.begin(), got_b.end());
            std::sort(want_b.begin(), want_b.end());
            bok = got_b == want_b;
        }
        check(bok, "bins: each bin's elements, each once");
        cudaFree(bcnt);
        cudaFree(bout);
    }

    // ticket: every block one ticket
    int t0 = 0;
    cudaMemcpy(cnt, &t0, sizeof(int), cudaMemcpyHostToDevice);
    ticket<<<blocks, 64>>>(cnt, order);
    std::vector<int> o(blocks);
    cudaMemcpy(o.data(), order, blocks * sizeof(int), cudaMemcpyDeviceToHost);
    std::sort(o.begin(), o.end());
    bool tok = true;
    for (int b = 0; b < blocks; b++) tok &= o[b] == b;
    check(tok, "ticket: one per block");

    check(cudaDeviceSynchronize() == cudaSuccess && cudaGetLastError() == cudaSuccess, "no error");
    if (!fails) printf("PASS\n");
    return fails ? 1 : 0;
}
