/* cub/device/device_histogram.cuh (cucc): cub::DeviceHistogram as CUB 1.17
 * declares it (HistogramEven, HistogramRange, MultiHistogramEven,
 * MultiHistogramRange, each for a sequence of samples and for rows with a
 * stride; the same parameters and defaults), on Thrust's CPU device system
 * (cub/device/cucc_device.cuh: the two-call protocol, the stream, errors).
 * CUB's dispatch for histograms has no tuning policy in its template
 * parameters through which cucc's could stand in (as for the other
 * algorithms), so the whole header is cucc's.
 *
 * As CUB's: each output histogram is zeroed, then each active channel of
 * each pixel counted (pixels of NUM_CHANNELS interleaved samples, of which
 * the first NUM_ACTIVE_CHANNELS are counted; rows row_stride_bytes apart).
 * A sample is converted to LevelT; HistogramEven counts it in bin
 * (sample - lower) * bins / (upper - lower) when lower <= sample < upper:
 * for floating-point levels with CUB's arithmetic, (sample - lower) *
 * (1 / ((upper - lower) / bins)), rounded down (a sample that this puts
 * past the last bin counts in the last: CUB's would write past it); for
 * integer levels exactly (CUB 1.17 divides by the truncated bin width
 * instead, which differs when the range is not a multiple of the bins;
 * later versions are as here). HistogramRange counts it in bin i when
 * levels[i] <= sample < levels[i + 1]. Samples outside are not counted (a
 * signed 8-bit one below zero too, which CUB 1.17 drops). */
#pragma once
#pragma GCC system_header

#include <cub/config.cuh>
#include <cub/util_type.cuh>
#include <cub/device/cucc_device.cuh>

#include <climits>
#include <cstring>
#include <type_traits>
#include <vector>

CUB_NAMESPACE_BEGIN
namespace cucc {

template <class LevelT, bool FLOAT = std::is_floating_point<LevelT>::value> struct EvenBins {
  int bins;
  LevelT lower, upper, scale;
  __host__ __device__ void Init(int num_levels, LevelT lo, LevelT hi) {
    bins = num_levels - 1;
    lower = lo;
    upper = hi;
    scale = LevelT(1) / LevelT((hi - lo) / LevelT(bins));
  }
  template <class S> __host__ __device__ int Bin(const S &sample) const {
    LevelT v = (LevelT)sample;
    if (!(v >= lower && v < upper)) return -1;
    int b = (int)((v - lower) * scale);
    return b < bins ? b : bins - 1;
  }
};

template <class LevelT> struct EvenBins<LevelT, false> {
  int bins;
  LevelT lower, upper;
  __host__ __device__ void Init(int num_levels, LevelT lo, LevelT hi) {
    bins = num_levels - 1;
    lower = lo;
    upper = hi;
  }
  template <class S> __host__ __device__ int Bin(const S &sample) const {
    LevelT v = (LevelT)sample;
    if (!(v >= lower && v < upper)) return -1;
    return (int)((__int128)(v - lower) * bins / (__int128)(upper - lower));
  }
};

template <class LevelT> struct RangeBins {
  int num_levels;
  LevelT *levels;
  __host__ __device__ void Init(int n, LevelT *l) {
    num_levels = n;
    levels = l;
  }
  template <class S> __host__ __device__ int Bin(const S &sample) const {
    LevelT v = (LevelT)sample;
    int lo = 0, hi = num_levels;   /* the first level above v */
    while (lo < hi) {
      int mid = lo + (hi - lo) / 2;
      if (v < levels[mid]) hi = mid;
      else lo = mid + 1;
    }
    return lo >= 1 && lo < num_levels ? lo - 1 : -1;
  }
};

template <class T, int N> struct Array { T v[N]; };

/* The histograms of a grid of pixels: blocks of rows counted into a
 * histogram of their own, which is then added to the output (a few atomic
 * additions per bin and block, where CUB's blocks have privatized
 * histograms too). */
template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, class SampleIteratorT, class CounterT, class OffsetT, class Bins>
void histogram(SampleIteratorT d_samples, Array<CounterT *, NUM_ACTIVE_CHANNELS> hist, Array<int, NUM_ACTIVE_CHANNELS> nbins,
               Array<Bins, NUM_ACTIVE_CHANNELS> bins, OffsetT num_row_pixels, OffsetT num_rows,
               OffsetT row_stride_samples) {
  int total = 0;
  for (int c = 0; c < NUM_ACTIVE_CHANNELS; c++) {
    if (nbins.v[c] > 0) std::memset(hist.v[c], 0, sizeof(CounterT) * nbins.v[c]);
    total += nbins.v[c] > 0 ? nbins.v[c] : 0;
  }
  if (num_row_pixels <= 0 || num_rows <= 0) return;
  long long pixels = (long long)num_row_pixels * num_rows;
  const long long CHUNK = 1 << 14;
  long long nchunks = (pixels + CHUNK - 1) / CHUNK;
  THRUST_NS_QUALIFIER::for_each(policy(), THRUST_NS_QUALIFIER::counting_iterator<long long>(0),
                                THRUST_NS_QUALIFIER::counting_iterator<long long>(nchunks),
                                [=] __host__ __device__(long long chunk) mutable {
                                  std::vector<CounterT> local(total > 0 ? total : 1);
                                  long long end = (chunk + 1) * CHUNK < pixels ? (chunk + 1) * CHUNK : pixels;
                                  for (long long p = chunk * CHUNK; p < end; p++) {
                                    OffsetT row = OffsetT(p / num_row_pixels), col = OffsetT(p % num_row_pixels);
                                    auto px = d_samples + (row * row_stride_samples + col * NUM_CHANNELS);
                                    for (int c = 0, base = 0; c < NUM_ACTIVE_CHANNELS; base += nbins.v[c], c++) {
                                      int b = bins.v[c].Bin(px[c]);
                                      if (b >= 0 && b < nbins.v[c]) local[base + b]++;
                                    }
                                  }
                                  for (int c = 0, base = 0; c < NUM_ACTIVE_CHANNELS; base += nbins.v[c], c++)
                                    for (int b = 0; b < nbins.v[c]; b++)
                                      if (local[base + b])
                                        __atomic_fetch_add(hist.v[c] + b, local[base + b], __ATOMIC_RELAXED);
                                });
}

}  // namespace cucc

struct DeviceHistogram {
  template <typename SampleIteratorT, typename CounterT, typename LevelT, typename OffsetT>
  CUB_RUNTIME_FUNCTION static cudaError_t HistogramEven(void *d_temp_storage, size_t &temp_storage_bytes,
                                                        SampleIteratorT d_samples, CounterT *d_histogram,
                                                        int num_levels, LevelT lower_level, LevelT upper_level,
                                                        OffsetT num_samples, cudaStream_t stream = 0,
                                                        bool debug_synchronous = false) {
    using SampleT = cub::detail::value_t<SampleIteratorT>;
    CounterT *d_histogram1[1] = {d_histogram};
    int num_levels1[1] = {num_levels};
    LevelT lower_level1[1] = {lower_level};
    LevelT upper_level1[1] = {upper_level};
    return MultiHistogramEven<1, 1>(d_temp_storage, temp_storage_bytes, d_samples, d_histogram1, num_levels1,
                                    lower_level1, upper_level1, num_samples, static_cast<OffsetT>(1),
                                    sizeof(SampleT) * num_samples, stream, debug_synchronous);
  }

  template <typename SampleIteratorT, typename CounterT, typename LevelT, typename OffsetT>
  CUB_RUNTIME_FUNCTION static cudaError_t HistogramEven(void *d_temp_storage, size_t &temp_storage_bytes,
                                                        SampleIteratorT d_samples, CounterT *d_histogram,
                                                        int num_levels, LevelT lower_level, LevelT upper_level,
                                                        OffsetT num_row_samples, OffsetT num_rows,
                                                        size_t row_stride_bytes, cudaStream_t stream = 0,
                                                        bool debug_synchronous = false) {
    CounterT *d_histogram1[1] = {d_histogram};
    int num_levels1[1] = {num_levels};
    LevelT lower_level1[1] = {lower_level};
    LevelT upper_level1[1] = {upper_level};
    return MultiHistogramEven<1, 1>(d_temp_storage, temp_storage_bytes, d_samples, d_histogram1, num_levels1,
                                    lower_level1, upper_level1, num_row_samples, num_rows, row_stride_bytes, stream,
                                    debug_synchronous);
  }

  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT, typename LevelT,
            typename OffsetT>
  CUB_RUNTIME_FUNCTION static cudaError_t
  MultiHistogramEven(void *d_temp_storage, size_t &temp_storage_bytes, SampleIteratorT d_samples,
                     CounterT *d_histogram[NUM_ACTIVE_CHANNELS], int num_levels[NUM_ACTIVE_CHANNELS],
                     LevelT lower_level[NUM_ACTIVE_CHANNELS], LevelT upper_level[NUM_ACTIVE_CHANNELS],
                     OffsetT num_pixels, cudaStream_t stream = 0, bool debug_synchronous = false) {
    using SampleT = cub::detail::value_t<SampleIteratorT>;
    return MultiHistogramEven<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(
        d_temp_storage, temp_storage_bytes, d_samples, d_histogram, num_levels, lower_level, upper_level, num_pixels,
        static_cast<OffsetT>(1), sizeof(SampleT) * NUM_CHANNELS * num_pixels, stream, debug_synchronous);
  }

  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT, typename LevelT,
            typename OffsetT>
  CUB_RUNTIME_FUNCTION static cudaError_t
  MultiHistogramEven(void *d_temp_storage, size_t &temp_storage_bytes, SampleIteratorT d_samples,
                     CounterT *d_histogram[NUM_ACTIVE_CHANNELS], int num_levels[NUM_ACTIVE_CHANNELS],
                     LevelT lower_level[NUM_ACTIVE_CHANNELS], LevelT upper_level[NUM_ACTIVE_CHANNELS],
                     OffsetT num_row_pixels, OffsetT num_rows, size_t row_stride_bytes, cudaStream_t stream = 0,
                     bool debug_synchronous = false) {
    using SampleT = cub::detail::value_t<SampleIteratorT>;
    cucc::Array<CounterT *, NUM_ACTIVE_CHANNELS> hist;
    cucc::Array<int, NUM_ACTIVE_CHANNELS> nbins;
    cucc::Array<cucc::EvenBins<LevelT>, NUM_ACTIVE_CHANNELS> bins;
    for (int c = 0; c < NUM_ACTIVE_CHANNELS; c++) {
      hist.v[c] = d_histogram[c];
      nbins.v[c] = num_levels[c] - 1;
      bins.v[c].Init(num_levels[c], lower_level[c], upper_level[c]);
    }
    OffsetT stride = (OffsetT)(row_stride_bytes / sizeof(SampleT));
    return cucc::run(d_temp_storage, temp_storage_bytes, stream, debug_synchronous, [=]() {
      cucc::histogram<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(d_samples, hist, nbins, bins, num_row_pixels, num_rows, stride);
    });
  }

  template <typename SampleIteratorT, typename CounterT, typename LevelT, typename OffsetT>
  CUB_RUNTIME_FUNCTION static cudaError_t HistogramRange(void *d_temp_storage, size_t &temp_storage_bytes,
                                                         SampleIteratorT d_samples, CounterT *d_histogram,
                                                         int num_levels, LevelT *d_levels, OffsetT num_samples,
                                                         cudaStream_t stream = 0, bool debug_synchronous = false) {
    using SampleT = cub::detail::value_t<SampleIteratorT>;
    CounterT *d_histogram1[1] = {d_histogram};
    int num_levels1[1] = {num_levels};
    LevelT *d_levels1[1] = {d_levels};
    return MultiHistogramRange<1, 1>(d_temp_storage, temp_storage_bytes, d_samples, d_histogram1, num_levels1,
                                     d_levels1, num_samples, (OffsetT)1, (size_t)(sizeof(SampleT) * num_samples),
                                     stream, debug_synchronous);
  }

  template <typename SampleIteratorT, typename CounterT, typename LevelT, typename OffsetT>
  CUB_RUNTIME_FUNCTION static cudaError_t HistogramRange(void *d_temp_storage, size_t &temp_storage_bytes,
                                                         SampleIteratorT d_samples, CounterT *d_histogram,
                                                         int num_levels, LevelT *d_levels, OffsetT num_row_samples,
                                                         OffsetT num_rows, size_t row_stride_bytes,
                                                         cudaStream_t stream = 0, bool debug_synchronous = false) {
    CounterT *d_histogram1[1] = {d_histogram};
    int num_levels1[1] = {num_levels};
    LevelT *d_levels1[1] = {d_levels};
    return MultiHistogramRange<1, 1>(d_temp_storage, temp_storage_bytes, d_samples, d_histogram1, num_levels1,
                                     d_levels1, num_row_samples, num_rows, row_stride_bytes, stream,
                                     debug_synchronous);
  }

  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT, typename LevelT,
            typename OffsetT>
  CUB_RUNTIME_FUNCTION static cudaError_t
  MultiHistogramRange(void *d_temp_storage, size_t &temp_storage_bytes, SampleIteratorT d_samples,
                      CounterT *d_histogram[NUM_ACTIVE_CHANNELS], int num_levels[NUM_ACTIVE_CHANNELS],
                      LevelT *d_levels[NUM_ACTIVE_CHANNELS], OffsetT num_pixels, cudaStream_t stream = 0,
                      bool debug_synchronous = false) {
    using SampleT = cub::detail::value_t<SampleIteratorT>;
    return MultiHistogramRange<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(
        d_temp_storage, temp_storage_bytes, d_samples, d_histogram, num_levels, d_levels, num_pixels, (OffsetT)1,
        (size_t)(sizeof(SampleT) * NUM_CHANNELS * num_pixels), stream, debug_synchronous);
  }

  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleIteratorT, typename CounterT, typename LevelT,
            typename OffsetT>
  CUB_RUNTIME_FUNCTION static cudaError_t
  MultiHistogramRange(void *d_temp_storage, size_t &temp_storage_bytes, SampleIteratorT d_samples,
                      CounterT *d_histogram[NUM_ACTIVE_CHANNELS], int num_levels[NUM_ACTIVE_CHANNELS],
                      LevelT *d_levels[NUM_ACTIVE_CHANNELS], OffsetT num_row_pixels, OffsetT num_rows,
                      size_t row_stride_bytes, cudaStream_t stream = 0, bool debug_synchronous = false) {
    using SampleT = cub::detail::value_t<SampleIteratorT>;
    cucc::Array<CounterT *, NUM_ACTIVE_CHANNELS> hist;
    cucc::Array<int, NUM_ACTIVE_CHANNELS> nbins;
    cucc::Array<cucc::RangeBins<LevelT>, NUM_ACTIVE_CHANNELS> bins;
    for (int c = 0; c < NUM_ACTIVE_CHANNELS; c++) {
      hist.v[c] = d_histogram[c];
      nbins.v[c] = num_levels[c] - 1;
      bins.v[c].Init(num_levels[c], d_levels[c]);
    }
    OffsetT stride = (OffsetT)(row_stride_bytes / sizeof(SampleT));
    return cucc::run(d_temp_storage, temp_storage_bytes, stream, debug_synchronous, [=]() {
      cucc::histogram<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(d_samples, hist, nbins, bins, num_row_pixels, num_rows, stride);
    });
  }
};

CUB_NAMESPACE_END
