// CUB's device-wide algorithms as CUDA programs call them (issue 23):
// cub::DeviceReduce, DeviceScan, DeviceRadixSort, DeviceMergeSort,
// DeviceSelect, DevicePartition, DeviceHistogram, DeviceSegmentedReduce,
// DeviceSegmentedRadixSort and DeviceRunLengthEncode::Encode through
// <cub/cub.cuh>, each with the two-call protocol (a size query, then the
// work in temporary storage of that size), at sizes 0, 1, odd and 2^20,
// alternately on the default stream and on a stream of their own, checked
// against a CPU reference. Also: the work is ordered in its stream (after a
// kernel that writes its input, before one that reads its output), the
// call returns before the work has run, a call in a stream that captures
// runs in the graph, too little storage is cudaErrorInvalidValue, and block
// primitives in the same file.
#include <cub/cub.cuh>
#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

static int fails;
#define CHECK(c, ...)                                  \
  do {                                                 \
    if (!(c)) {                                        \
      printf("FAIL %s:%d: ", __FILE__, __LINE__);      \
      printf(__VA_ARGS__);                             \
      printf("\n");                                    \
      fails++;                                         \
    }                                                  \
  } while (0)

static void *temp;            // one allocation for every algorithm, as programs do
static size_t temp_cap = 1 << 20;

// the two calls: the size, then the work (on stream s, not waited for)
template <class F> static cudaError_t two_calls(const char *what, F f) {
  size_t bytes = 0;
  cudaError_t e = f((void *)NULL, bytes);
  CHECK(e == cudaSuccess, "%s: size query: %s", what, cudaGetErrorString(e));
  CHECK(bytes > 0 && bytes <= temp_cap, "%s: %zu bytes of temporary storage", what, bytes);
  return f(temp, bytes);
}

struct AbsMax {   // a functor with a __device__ operator, as GPU programs write them
  __device__ int operator()(int a, int b) const { return abs(a) > abs(b) ? abs(a) : abs(b); }
};
struct Less {
  __host__ __device__ bool operator()(unsigned a, unsigned b) const { return a < b; }
};
struct Max2 {
  __host__ __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};
struct IsOdd {
  __device__ bool operator()(int x) const { return x & 1; }
};
struct Small {
  __host__ __device__ bool operator()(int x) const { return x < -100; }
};
struct Big {
  __host__ __device__ bool operator()(int x) const { return x > 100; }
};

static int value(long i) { return (int)((i * 2654435761u) % 2001) - 1000; }

// the sums of each block of 128: CUB's block primitives next to its
// device-wide algorithms; also the input writer of the ordering test
__global__ void block_sums(const int *in, int *out, int n) {
  typedef cub::BlockReduce<int, 128> BR;
  __shared__ typename BR::TempStorage t;
  int i = blockIdx.x * 128 + threadIdx.x;
  int s = BR(t).Sum(i < n ? in[i] : 0);
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}

__global__ void fill(int *a, int n, int v) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) a[i] = v + i % 3;
}

__global__ void twice(const int *a, int *b) { *b = 2 * *a; }

template <class T> static T *alloc(long n) {
  T *p;
  cudaMallocManaged(&p, (n ? n : 1) * sizeof(T));
  return p;
}

static void reduce(int n, cudaStream_t s) {
  int *in = alloc<int>(n), *out = alloc<int>(8);
  float *f = alloc<float>(n);
  cub::KeyValuePair<int, float> *kv = alloc<cub::KeyValuePair<int, float>>(2);
  for (int i = 0; i < n; i++) in[i] = value(i), f[i] = (float)(value(i) % 97);
  CHECK(!two_calls("Sum", [&](void *t, size_t &b) { return cub::DeviceReduce::Sum(t, b, in, out, n, s); }), "Sum");
  two_calls("Min", [&](void *t, size_t &b) { return cub::DeviceReduce::Min(t, b, in, out + 1, n, s); });
  two_calls("Max", [&](void *t, size_t &b) { return cub::DeviceReduce::Max(t, b, in, out + 2, n, s); });
  two_calls("Reduce", [&](void *t, size_t &b) { return cub::DeviceReduce::Reduce(t, b, in, out + 3, n, AbsMax(), 7, s); });
  two_calls("ArgMin", [&](void *t, size_t &b) { return cub::DeviceReduce::ArgMin(t, b, f, kv, n, s); });
  two_calls("ArgMax", [&](void *t, size_t &b) { return cub::DeviceReduce::ArgMax(t, b, f, kv + 1, n, s); });
  cudaStreamSynchronize(s);
  long sum = 0;
  int mn = INT_MAX, mx = INT_MIN, am = 7, imn = 1, imx = 1;
  float fmn = INFINITY, fmx = -INFINITY;
  if (!n) fmn = cub::Traits<float>::Max(), fmx = cub::Traits<float>::Lowest();
  for (int i = 0; i < n; i++) {
    sum += in[i], mn = std::min(mn, in[i]), mx = std::max(mx, in[i]), am = std::max(am, abs(in[i]));
    if (i == 0 || f[i] < fmn) fmn = f[i], imn = i;
    if (i == 0 || f[i] > fmx) fmx = f[i], imx = i;
  }
  CHECK(out[0] == (int)sum, "DeviceReduce::Sum(%d): %d, want %ld", n, out[0], sum);
  CHECK(out[1] == mn, "DeviceReduce::Min(%d): %d, want %d", n, out[1], mn);
  CHECK(out[2] == mx, "DeviceReduce::Max(%d): %d, want %d", n, out[2], mx);
  CHECK(out[3] == am, "DeviceReduce::Reduce(%d, abs max, 7): %d, want %d", n, out[3], am);
  CHECK(kv[0].key == imn && kv[0].value == fmn, "DeviceReduce::ArgMin(%d): (%d, %g), want (%d, %g)", n, kv[0].key,
        kv[0].value, imn, fmn);
  CHECK(kv[1].key == imx && kv[1].value == fmx, "DeviceReduce::ArgMax(%d): (%d, %g), want (%d, %g)", n, kv[1].key,
        kv[1].value, imx, fmx);

  // ReduceByKey and RunLengthEncode::Encode: runs of keys
  int *keys = alloc<int>(n), *uniq = alloc<int>(n), *agg = alloc<int>(n), *runs = alloc<int>(2);
  for (int i = 0; i < n; i++) keys[i] = (i / 3) % 5 + (i % 11 == 0);
  two_calls("ReduceByKey", [&](void *t, size_t &b) {
    return cub::DeviceReduce::ReduceByKey(t, b, keys, uniq, in, agg, runs, cub::Sum(), n, s);
  });
  cudaStreamSynchronize(s);
  std::vector<int> wk, wa;
  for (int i = 0; i < n; i++)
    if (i && keys[i] == keys[i - 1]) wa.back() += in[i];
    else wk.push_back(keys[i]), wa.push_back(in[i]);
  int bad = runs[0] != (int)wk.size();
  for (int i = 0; !bad && i < runs[0]; i++) bad += uniq[i] != wk[i] || agg[i] != wa[i];
  CHECK(!bad, "DeviceReduce::ReduceByKey(%d): %d runs, want %zu", n, runs[0], wk.size());
  two_calls("Encode", [&](void *t, size_t &b) {
    return cub::DeviceRunLengthEncode::Encode(t, b, keys, uniq, agg, runs + 1, n, s);
  });
  cudaStreamSynchronize(s);
  bad = runs[1] != (int)wk.size();
  for (int i = 0, at = 0; !bad && i < runs[1]; at += agg[i], i++) bad += uniq[i] != wk[i] || keys[at] != uniq[i];
  CHECK(!bad, "DeviceRunLengthEncode::Encode(%d): %d runs, want %zu", n, runs[1], wk.size());
  cudaFree(in), cudaFree(out), cudaFree(f), cudaFree(kv), cudaFree(keys), cudaFree(uniq), cudaFree(agg), cudaFree(runs);
}

static void scan(int n, cudaStream_t s) {
  int *in = alloc<int>(n), *a = alloc<int>(n), *b = alloc<int>(n), *c = alloc<int>(n), *d = alloc<int>(n);
  int *keys = alloc<int>(n), *e = alloc<int>(n);
  for (int i = 0; i < n; i++) in[i] = value(i), keys[i] = i / 7;
  two_calls("ExclusiveSum", [&](void *t, size_t &sz) { return cub::DeviceScan::ExclusiveSum(t, sz, in, a, n, s); });
  two_calls("InclusiveSum", [&](void *t, size_t &sz) { return cub::DeviceScan::InclusiveSum(t, sz, in, b, n, s); });
  two_calls("ExclusiveScan", [&](void *t, size_t &sz) {
    return cub::DeviceScan::ExclusiveScan(t, sz, in, c, Max2(), -5000, n, s);
  });
  two_calls("InclusiveScan", [&](void *t, size_t &sz) { return cub::DeviceScan::InclusiveScan(t, sz, in, d, AbsMax(), n, s); });
  two_calls("ExclusiveSumByKey", [&](void *t, size_t &sz) {
    return cub::DeviceScan::ExclusiveSumByKey(t, sz, keys, in, e, n, cub::Equality(), s);
  });
  cudaStreamSynchronize(s);
  int bad[5] = {0};
  long sum = 0, ksum = 0;
  int mx = -5000, am = 0;
  for (int i = 0; i < n; i++) {
    if (i && keys[i] != keys[i - 1]) ksum = 0;
    bad[0] += a[i] != (int)sum;
    bad[2] += c[i] != mx;
    bad[4] += e[i] != (int)ksum;
    sum += in[i], mx = std::max(mx, in[i]), ksum += in[i];
    am = i ? std::max(abs(am), abs(in[i])) : in[i];
    bad[1] += b[i] != (int)sum;
    bad[3] += d[i] != am;
  }
  CHECK(!bad[0], "DeviceScan::ExclusiveSum(%d): %d wrong", n, bad[0]);
  CHECK(!bad[1], "DeviceScan::InclusiveSum(%d): %d wrong", n, bad[1]);
  CHECK(!bad[2], "DeviceScan::ExclusiveScan(%d, max, -5000): %d wrong", n, bad[2]);
  CHECK(!bad[3], "DeviceScan::InclusiveScan(%d, abs max): %d wrong", n, bad[3]);
  CHECK(!bad[4], "DeviceScan::ExclusiveSumByKey(%d): %d wrong", n, bad[4]);
  cudaFree(in), cudaFree(a), cudaFree(b), cudaFree(c), cudaFree(d), cudaFree(keys), cudaFree(e);
}

// a stable sort of positions by key (std::sort, the position breaking ties)
template <class Less> static void stable_order(std::vector<int> &p, Less less) {
  std::sort(p.begin(), p.end(), [&](int a, int b) { return less(a, b) || (!less(b, a) && a < b); });
}

template <class K> static unsigned digit(K k, int b0, int b1) {   // bits [b0, b1) of an unsigned key
  return (unsigned)((k >> b0) & ((1ull << (b1 - b0)) - 1));
}

static void radix_sort(int n, cudaStream_t s) {
  unsigned *uk = alloc<unsigned>(n), *uo = alloc<unsigned>(n);
  int *ik = alloc<int>(n), *io = alloc<int>(n), *v = alloc<int>(n), *vo = alloc<int>(n);
  float *fk = alloc<float>(n), *fo = alloc<float>(n);
  unsigned *db0 = alloc<unsigned>(n), *db1 = alloc<unsigned>(n);
  int *dv0 = alloc<int>(n), *dv1 = alloc<int>(n);
  for (int i = 0; i < n; i++) {
    uk[i] = (unsigned)(i * 2654435761u) ^ (unsigned)(i >> 3);
    ik[i] = value(i) * 1000 + i % 7;
    v[i] = i;
    fk[i] = (i % 13 == 0) ? (i % 2 ? -0.0f : 0.0f) : (float)(value(i) % 50) * 0.25f;
    db0[i] = uk[i] % 1000, dv0[i] = i;
  }
  two_calls("SortKeys", [&](void *t, size_t &b) { return cub::DeviceRadixSort::SortKeys(t, b, uk, uo, n, 0, 32, s); });
  two_calls("SortPairs", [&](void *t, size_t &b) { return cub::DeviceRadixSort::SortPairs(t, b, ik, io, v, vo, n, 0, 32, s); });
  cudaStreamSynchronize(s);
  std::vector<unsigned> ru(uk, uk + n);
  std::sort(ru.begin(), ru.end());
  CHECK(std::equal(ru.begin(), ru.end(), uo), "DeviceRadixSort::SortKeys(%d) unsigned", n);
  std::vector<int> perm(n);
  for (int i = 0; i < n; i++) perm[i] = i;
  stable_order(perm, [&](int a, int b) { return ik[a] < ik[b]; });
  int bad = 0;
  for (int i = 0; i < n; i++) bad += io[i] != ik[perm[i]] || vo[i] != perm[i];
  CHECK(!bad, "DeviceRadixSort::SortPairs(%d) int: %d wrong", n, bad);

  // descending floats (-0.0 and +0.0 equal: in their input order), values
  // with them
  two_calls("SortPairsDescending", [&](void *t, size_t &b) {
    return cub::DeviceRadixSort::SortPairsDescending(t, b, fk, fo, v, vo, n, 0, 32, s);
  });
  cudaStreamSynchronize(s);
  for (int i = 0; i < n; i++) perm[i] = i;
  stable_order(perm, [&](int a, int b) { return fk[a] > fk[b]; });
  bad = 0;
  for (int i = 0; i < n; i++) bad += vo[i] != perm[i] || memcmp(&fo[i], &fk[perm[i]], 4);
  CHECK(!bad, "DeviceRadixSort::SortPairsDescending(%d) float: %d wrong", n, bad);
  for (int i = 0; i < n; i++) perm[i] = i;

  // bits [4, 12) only: stable by that digit
  two_calls("SortKeys bits", [&](void *t, size_t &b) { return cub::DeviceRadixSort::SortKeys(t, b, uk, uo, n, 4, 12, s); });
  two_calls("SortKeysDescending", [&](void *t, size_t &b) {
    return cub::DeviceRadixSort::SortKeysDescending(t, b, ik, io, n, 0, 32, s);
  });
  cudaStreamSynchronize(s);
  for (int i = 0; i < n; i++) perm[i] = i;
  stable_order(perm, [&](int a, int b) { return digit(uk[a], 4, 12) < digit(uk[b], 4, 12); });
  bad = 0;
  for (int i = 0; i < n; i++) bad += uo[i] != uk[perm[i]];
  CHECK(!bad, "DeviceRadixSort::SortKeys(%d, bits 4..12): %d wrong", n, bad);
  std::vector<int> ri(ik, ik + n);
  std::sort(ri.begin(), ri.end(), [](int a, int b) { return a > b; });
  CHECK(std::equal(ri.begin(), ri.end(), io), "DeviceRadixSort::SortKeysDescending(%d) int", n);

  // DoubleBuffer forms: the result in Current()
  cub::DoubleBuffer<unsigned> dk(db0, db1);
  cub::DoubleBuffer<int> dv(dv0, dv1);
  std::vector<unsigned> keys0(db0, db0 + n);
  two_calls("SortPairs DoubleBuffer", [&](void *t, size_t &b) {
    return cub::DeviceRadixSort::SortPairs(t, b, dk, dv, n, 0, 10, s);
  });
  cudaStreamSynchronize(s);
  stable_order(perm, [&](int a, int b) { return keys0[a] < keys0[b]; });
  bad = 0;
  for (int i = 0; i < n; i++) bad += dk.Current()[i] != keys0[perm[i]] || dv.Current()[i] != perm[i];
  CHECK(!bad, "DeviceRadixSort::SortPairs(%d, DoubleBuffer): %d wrong", n, bad);
  two_calls("SortKeysDescending DoubleBuffer", [&](void *t, size_t &b) {
    return cub::DeviceRadixSort::SortKeysDescending(t, b, dk, n, 0, 32, s);
  });
  cudaStreamSynchronize(s);
  std::sort(keys0.begin(), keys0.end(), [](unsigned a, unsigned b) { return a > b; });
  CHECK(std::equal(keys0.begin(), keys0.end(), dk.Current()), "DeviceRadixSort::SortKeysDescending(%d, DoubleBuffer)", n);

  // DeviceMergeSort: a comparator of the program's (a __device__ one), in
  // place with values, and keys copied
  struct AbsLess {
    __device__ bool operator()(int a, int b) const { return abs(a) < abs(b); }
  };
  for (int i = 0; i < n; i++) io[i] = ik[i], vo[i] = i, perm[i] = i;
  two_calls("DeviceMergeSort::SortPairs", [&](void *t, size_t &b) {
    return cub::DeviceMergeSort::SortPairs(t, b, io, vo, n, AbsLess(), s);
  });
  cudaStreamSynchronize(s);
  stable_order(perm, [&](int a, int b) { return abs(ik[a]) < abs(ik[b]); });
  bad = 0;
  for (int i = 0; i < n; i++) bad += io[i] != ik[perm[i]] || vo[i] != perm[i];
  CHECK(!bad, "DeviceMergeSort::SortPairs(%d): %d wrong", n, bad);
  two_calls("DeviceMergeSort::SortKeysCopy", [&](void *t, size_t &b) {
    return cub::DeviceMergeSort::SortKeysCopy(t, b, uk, uo, n, Less(), s);
  });
  cudaStreamSynchronize(s);
  ru.assign(uk, uk + n);
  std::sort(ru.begin(), ru.end());
  CHECK(std::equal(ru.begin(), ru.end(), uo), "DeviceMergeSort::SortKeysCopy(%d)", n);

  // segments of the keys, some empty: each sorted, what is outside untouched
  int nseg = n / 1000 + 2, *off = alloc<int>(nseg + 1);
  for (int i = 0; i <= nseg; i++) off[i] = (int)((long)n * i / nseg);
  if (nseg > 2) off[1] = off[0];   // an empty segment
  for (int i = 0; i < n; i++) io[i] = -1;
  two_calls("DeviceSegmentedRadixSort::SortPairs", [&](void *t, size_t &b) {
    return cub::DeviceSegmentedRadixSort::SortPairs(t, b, ik, io, v, vo, n, nseg, off, off + 1, 0, 32, s);
  });
  cudaStreamSynchronize(s);
  bad = 0;
  for (int g = 0; g < nseg; g++) {
    std::vector<int> p;
    for (int i = off[g]; i < off[g + 1]; i++) p.push_back(i);
    stable_order(p, [&](int a, int b) { return ik[a] < ik[b]; });
    for (size_t j = 0; j < p.size(); j++) bad += io[off[g] + j] != ik[p[j]] || vo[off[g] + j] != p[j];
  }
  CHECK(!bad, "DeviceSegmentedRadixSort::SortPairs(%d, %d segments): %d wrong", n, nseg, bad);
  cudaFree(uk), cudaFree(uo), cudaFree(ik), cudaFree(io), cudaFree(v), cudaFree(vo), cudaFree(fk), cudaFree(fo);
  cudaFree(db0), cudaFree(db1), cudaFree(dv0), cudaFree(dv1), cudaFree(off);
}

static void select(int n, cudaStream_t s) {
  int *in = alloc<int>(n), *out = alloc<int>(n), *cnt = alloc<int>(8);
  char *flags = alloc<char>(n);
  int *vals = alloc<int>(n), *kout = alloc<int>(n), *vout = alloc<int>(n);
  int *p1 = alloc<int>(n), *p2 = alloc<int>(n), *p3 = alloc<int>(n);
  for (int i = 0; i < n; i++) in[i] = value(i / 4), flags[i] = (char)(i % 3 == 0), vals[i] = i;
  std::vector<int> want;
  two_calls("Flagged", [&](void *t, size_t &b) { return cub::DeviceSelect::Flagged(t, b, in, flags, out, cnt, n, s); });
  cudaStreamSynchronize(s);
  for (int i = 0; i < n; i++)
    if (flags[i]) want.push_back(in[i]);
  CHECK(cnt[0] == (int)want.size() && std::equal(want.begin(), want.end(), out), "DeviceSelect::Flagged(%d): %d selected, want %zu",
        n, cnt[0], want.size());
  want.clear();
  two_calls("If", [&](void *t, size_t &b) { return cub::DeviceSelect::If(t, b, in, out, cnt, n, IsOdd(), s); });
  cudaStreamSynchronize(s);
  for (int i = 0; i < n; i++)
    if (in[i] & 1) want.push_back(in[i]);
  CHECK(cnt[0] == (int)want.size() && std::equal(want.begin(), want.end(), out), "DeviceSelect::If(%d): %d selected, want %zu",
        n, cnt[0], want.size());
  want.clear();
  two_calls("Unique", [&](void *t, size_t &b) { return cub::DeviceSelect::Unique(t, b, in, out, cnt, n, s); });
  two_calls("UniqueByKey", [&](void *t, size_t &b) {
    return cub::DeviceSelect::UniqueByKey(t, b, in, vals, kout, vout, cnt + 1, n, s);
  });
  cudaStreamSynchronize(s);
  std::vector<int> wv;
  for (int i = 0; i < n; i++)
    if (!i || in[i] != in[i - 1]) want.push_back(in[i]), wv.push_back(i);
  CHECK(cnt[0] == (int)want.size() && std::equal(want.begin(), want.end(), out), "DeviceSelect::Unique(%d): %d, want %zu", n,
        cnt[0], want.size());
  CHECK(cnt[1] == (int)want.size() && std::equal(want.begin(), want.end(), kout) && std::equal(wv.begin(), wv.end(), vout),
        "DeviceSelect::UniqueByKey(%d): %d, want %zu", n, cnt[1], want.size());

  // partitions: the selected in order, the rest after them reversed; three
  // ways: each part in order
  two_calls("DevicePartition::If", [&](void *t, size_t &b) { return cub::DevicePartition::If(t, b, in, out, cnt, n, IsOdd(), s); });
  two_calls("DevicePartition::If 3", [&](void *t, size_t &b) {
    return cub::DevicePartition::If(t, b, in, p1, p2, p3, cnt + 2, n, Small(), Big(), s);
  });
  cudaStreamSynchronize(s);
  std::vector<int> sel, rej, w1, w2, w3;
  for (int i = 0; i < n; i++) {
    (in[i] & 1 ? sel : rej).push_back(in[i]);
    (in[i] < -100 ? w1 : in[i] > 100 ? w2 : w3).push_back(in[i]);
  }
  sel.insert(sel.end(), rej.rbegin(), rej.rend());
  CHECK(cnt[0] == n - (int)rej.size() && std::equal(sel.begin(), sel.end(), out), "DevicePartition::If(%d)", n);
  CHECK(cnt[2] == (int)w1.size() && cnt[3] == (int)w2.size() && std::equal(w1.begin(), w1.end(), p1) &&
            std::equal(w2.begin(), w2.end(), p2) && std::equal(w3.begin(), w3.end(), p3),
        "DevicePartition::If(%d, three ways): %d %d, want %zu %zu", n, cnt[2], cnt[3], w1.size(), w2.size());
  cudaFree(in), cudaFree(out), cudaFree(cnt), cudaFree(flags), cudaFree(vals), cudaFree(kout), cudaFree(vout);
  cudaFree(p1), cudaFree(p2), cudaFree(p3);
}

static void histogram(int n, cudaStream_t s) {
  float *f = alloc<float>(n);
  int *iv = alloc<int>(n), *h = alloc<int>(64), *hr = alloc<int>(64);
  unsigned char *px = alloc<unsigned char>(4 * (long)n);
  unsigned *hc[3];
  for (int c = 0; c < 3; c++) hc[c] = alloc<unsigned>(256);
  float levels[9] = {-1000, -700, -300, -100, 0, 10, 200, 600, 900};
  float *dl = alloc<float>(9);
  memcpy(dl, levels, sizeof levels);
  for (int i = 0; i < n; i++) f[i] = value(i) * 1.1f, iv[i] = value(i);
  for (long i = 0; i < 4L * n; i++) px[i] = (unsigned char)(i * 7 + i / 5);
  // 40 bins over [-1000, 1000): 50 each; 8 ranges; RGBA pixels, 3 of 4 channels
  two_calls("HistogramEven", [&](void *t, size_t &b) {
    return cub::DeviceHistogram::HistogramEven(t, b, iv, h, 41, -1000, 1000, n, s);
  });
  two_calls("HistogramRange", [&](void *t, size_t &b) { return cub::DeviceHistogram::HistogramRange(t, b, f, hr, 9, dl, n, s); });
  int nl[3] = {257, 17, 5};
  unsigned lo[3] = {0, 0, 100}, hi[3] = {256, 256, 200};
  two_calls("MultiHistogramEven", [&](void *t, size_t &b) {
    return cub::DeviceHistogram::MultiHistogramEven<4, 3>(t, b, px, hc, nl, lo, hi, n, s);
  });
  cudaStreamSynchronize(s);
  std::vector<int> w(40), wr(8);
  std::vector<unsigned> wc[3] = {std::vector<unsigned>(256), std::vector<unsigned>(16), std::vector<unsigned>(4)};
  for (int i = 0; i < n; i++) {
    if (iv[i] >= -1000 && iv[i] < 1000) w[(iv[i] + 1000) / 50]++;
    for (int k = 0; k < 8; k++)
      if (f[i] >= levels[k] && f[i] < levels[k + 1]) wr[k]++;
    for (int c = 0; c < 3; c++) {
      unsigned x = px[4L * i + c];
      if (x >= lo[c] && x < hi[c]) wc[c][(x - lo[c]) * (nl[c] - 1) / (hi[c] - lo[c])]++;
    }
  }
  CHECK(std::equal(w.begin(), w.end(), h), "DeviceHistogram::HistogramEven(%d)", n);
  CHECK(std::equal(wr.begin(), wr.end(), hr), "DeviceHistogram::HistogramRange(%d)", n);
  for (int c = 0; c < 3; c++) CHECK(std::equal(wc[c].begin(), wc[c].end(), hc[c]), "DeviceHistogram::MultiHistogramEven<4, 3>(%d) channel %d", n, c);
  cudaFree(f), cudaFree(iv), cudaFree(h), cudaFree(hr), cudaFree(px), cudaFree(dl);
  for (int c = 0; c < 3; c++) cudaFree(hc[c]);
}

static void segmented_reduce(int n, cudaStream_t s) {
  int nseg = n / 100 + 3;
  int *in = alloc<int>(n), *off = alloc<int>(nseg + 1), *sum = alloc<int>(nseg), *mn = alloc<int>(nseg), *red = alloc<int>(nseg);
  cub::KeyValuePair<int, int> *am = alloc<cub::KeyValuePair<int, int>>(nseg);
  for (int i = 0; i < n; i++) in[i] = value(i);
  for (int g = 0; g <= nseg; g++) off[g] = (int)((long)n * g * g / ((long)nseg * nseg));   // uneven, some empty
  two_calls("SegmentedReduce::Sum", [&](void *t, size_t &b) {
    return cub::DeviceSegmentedReduce::Sum(t, b, in, sum, nseg, off, off + 1, s);
  });
  two_calls("SegmentedReduce::Min", [&](void *t, size_t &b) {
    return cub::DeviceSegmentedReduce::Min(t, b, in, mn, nseg, off, off + 1, s);
  });
  two_calls("SegmentedReduce::ArgMax", [&](void *t, size_t &b) {
    return cub::DeviceSegmentedReduce::ArgMax(t, b, in, am, nseg, off, off + 1, s);
  });
  two_calls("SegmentedReduce::Reduce", [&](void *t, size_t &b) {
    return cub::DeviceSegmentedReduce::Reduce(t, b, in, red, nseg, off, off + 1, AbsMax(), 3, s);
  });
  cudaStreamSynchronize(s);
  int bad = 0;
  for (int g = 0; g < nseg; g++) {
    int ws = 0, wm = INT_MAX, wa = 3, wk = 1, wv = INT_MIN;
    for (int i = off[g]; i < off[g + 1]; i++) {
      ws += in[i], wm = std::min(wm, in[i]), wa = std::max(wa, abs(in[i]));
      if (in[i] > wv) wv = in[i], wk = i - off[g];
    }
    bad += sum[g] != ws || mn[g] != wm || red[g] != wa || am[g].key != wk || am[g].value != wv;
  }
  CHECK(!bad, "DeviceSegmentedReduce(%d, %d segments): %d wrong", n, nseg, bad);
  cudaFree(in), cudaFree(off), cudaFree(sum), cudaFree(mn), cudaFree(red), cudaFree(am);
}

int main() {
  cudaMalloc(&temp, temp_cap);
  cudaStream_t s;
  cudaStreamCreate(&s);
  const int sizes[] = {0, 1, 12345, 1 << 20};
  for (int k = 0; k < 4; k++) {
    int n = sizes[k];
    cudaStream_t st = k % 2 ? s : 0;
    reduce(n, st);
    scan(n, st);
    radix_sort(n, st ? 0 : s);
    select(n, st);
    histogram(n, st ? 0 : s);
    segmented_reduce(n, st);
  }

  // ordering: a kernel writes the input, the reduction reads it and a
  // kernel reads its result, all in s; the call returns before its work
  // has run (behind a host function that sleeps)
  int n = 1 << 20, *in = alloc<int>(n), *out = alloc<int>(2), *part = alloc<int>(n / 128);
  for (int i = 0; i < n; i++) in[i] = -1;
  fill<<<64, 256, 0, s>>>(in, n, 5);
  cudaLaunchHostFunc(s, [](void *) { std::this_thread::sleep_for(std::chrono::milliseconds(200)); }, NULL);
  auto t0 = std::chrono::steady_clock::now();
  two_calls("Sum, ordered", [&](void *t, size_t &b) { return cub::DeviceReduce::Sum(t, b, in, out, n, s); });
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  twice<<<1, 1, 0, s>>>(out, out + 1);
  block_sums<<<n / 128, 128, 0, s>>>(in, part, n);
  cudaStreamSynchronize(s);
  long want = 0;
  for (int i = 0; i < n; i++) want += 5 + i % 3;
  CHECK(ms < 150, "DeviceReduce::Sum on a busy stream returned after %.0f ms: not asynchronous", ms);
  CHECK(out[0] == (int)want && out[1] == 2 * (int)want, "ordered in its stream: %d %d, want %ld %ld", out[0], out[1], want,
        2 * want);
  int bad = 0;
  for (int b = 0; b < n / 128; b++) bad += part[b] != 5 * 128 + (128 * b % 3 == 0 ? 127 : 128 * b % 3 == 1 ? 129 : 128);
  CHECK(!bad, "cub::BlockReduce next to the device-wide algorithms: %d blocks wrong", bad);

  // captured into a graph (a host node): run when the graph is launched,
  // on the input as it is then
  cudaGraph_t g;
  cudaGraphExec_t ge;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  two_calls("Sum, captured", [&](void *t, size_t &b) { return cub::DeviceReduce::Sum(t, b, in, out, n, s); });
  CHECK(cudaStreamEndCapture(s, &g) == cudaSuccess, "capture");
  CHECK(cudaGraphInstantiate(&ge, g, 0) == cudaSuccess, "instantiate");
  for (int i = 0; i < n; i++) in[i] = i % 5;
  cudaGraphLaunch(ge, s);
  cudaStreamSynchronize(s);
  CHECK(out[0] == (n / 5) * 10, "DeviceReduce::Sum in a graph: %d, want %d", out[0], (n / 5) * 10);
  cudaGraphExecDestroy(ge);
  cudaGraphDestroy(g);

  // too little temporary storage: cudaErrorInvalidValue, as CUB's
  size_t bytes = 0;
  cub::DeviceScan::InclusiveSum(NULL, bytes, in, in, n);
  bytes--;
  CHECK(cub::DeviceScan::InclusiveSum(temp, bytes, in, in, n) == cudaErrorInvalidValue, "too little storage accepted");

  cudaStreamDestroy(s);
  if (fails) return 1;
  printf("PASSED\n");
  return 0;
}
