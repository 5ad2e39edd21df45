// cuda::pipeline with producer and consumer roles (issue 23): warps that
// wait for each other other than at barriers, each warp a coroutine
// (runtime/src/warps.c). The samples' globalToShmemAsyncCopy kernel
// MatrixMulAsyncCopyMultiStageSharedState (its spelling: producer rows
// below the consumer rows, a four-stage ring the producers run ahead in);
// a pipeline made with a count of producers whose warps return early and
// whose consumers run the stages in a while loop; one made without roles
// under a branch every thread of a block takes; and roles within one warp,
// which wait for each other here (a warp's lanes run together): the launch
// fails with the deadlock named (an H200, which schedules a warp's threads
// apart, runs it: recorded; docs/libraries.md says so). Checked against
// the host; compute-sanitizer's racecheck reports no hazard on an H200,
// nor does cucc --check.
#include <cooperative_groups.h>
#include <cuda/pipeline>
#include <cstdio>
namespace cg = cooperative_groups;

static int fails;
#define CHECK(c, ...)                             \
  do {                                            \
    if (!(c)) {                                   \
      printf("FAIL %s:%d: ", __FILE__, __LINE__); \
      printf(__VA_ARGS__);                        \
      printf("\n");                               \
      fails++;                                    \
    }                                             \
  } while (0)

template <int BLOCK_SIZE_X>
__global__ void MatrixMulAsyncCopyMultiStageSharedState(float *__restrict__ C, const float *__restrict__ A,
                                                        const float *__restrict__ B, int wA, int wB) {
  constexpr size_t maxPipelineStages = 4;
  __shared__ alignas(alignof(float4)) float As[maxPipelineStages][BLOCK_SIZE_X][BLOCK_SIZE_X];
  __shared__ alignas(alignof(float4)) float Bs[maxPipelineStages][BLOCK_SIZE_X][BLOCK_SIZE_X];
  float Csub = 0.0;
  const int aBegin = wA * BLOCK_SIZE_X * blockIdx.y;
  const int aEnd = aBegin + wA - 1;
  int aStep = BLOCK_SIZE_X;
  int bBegin = BLOCK_SIZE_X * blockIdx.x;
  int bStep = BLOCK_SIZE_X * wB;
  auto cta = cg::this_thread_block();
  const auto shape1 = cuda::aligned_size_t<alignof(float)>(sizeof(float));
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, maxPipelineStages> shared_state;
  constexpr int consumer_row_count = BLOCK_SIZE_X;
  const auto thread_role =
      (threadIdx.y < consumer_row_count) ? cuda::pipeline_role::consumer : cuda::pipeline_role::producer;
  auto pipe = cuda::make_pipeline(cta, &shared_state, thread_role);
  for (int a = aBegin, b = bBegin, i = 0, aStage = aBegin, bStage = bBegin, iStage = 0; a <= aEnd;
       a += aStep, b += bStep, ++i) {
    if (threadIdx.y >= consumer_row_count) {
      for (; aStage <= a + aStep * maxPipelineStages; aStage += aStep, bStage += bStep, ++iStage) {
        if (aStage <= aEnd) {
          const int j = iStage % maxPipelineStages;
          const int x = threadIdx.x;
          const int y = threadIdx.y - BLOCK_SIZE_X;
          pipe.producer_acquire();
          cuda::memcpy_async(&As[j][y][x], &A[aStage + wA * y + x], shape1, pipe);
          cuda::memcpy_async(&Bs[j][y][x], &B[bStage + wB * y + x], shape1, pipe);
          pipe.producer_commit();
        }
      }
    } else {
      pipe.consumer_wait();
#pragma unroll
      for (int k = 0; k < BLOCK_SIZE_X; ++k) {
        Csub += As[i % maxPipelineStages][threadIdx.y][k] * Bs[i % maxPipelineStages][k][threadIdx.x];
      }
      pipe.consumer_release();
    }
  }
  if (threadIdx.y < consumer_row_count) {
    const int c = wB * BLOCK_SIZE_X * blockIdx.y + BLOCK_SIZE_X * blockIdx.x;
    C[c + wB * threadIdx.y + threadIdx.x] = Csub;
  }
}

// two producer warps (the first 64 threads) stream `chunks` chunks of 64
// floats through 2 stages and return; the consumers sum each chunk
// reversed, in a while loop
__global__ void stream(const float *in, float *out, int chunks) {
  __shared__ float buf[2][64];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> st;
  auto block = cg::this_thread_block();
  cuda::pipeline<cuda::thread_scope_block> pipe = cuda::make_pipeline(block, &st, 64);
  const float *src = in + blockIdx.x * chunks * 64;
  unsigned t = threadIdx.x;
  if (t < 64) {
    for (int c = 0; c < chunks; c++) {
      pipe.producer_acquire();
      cuda::memcpy_async(&buf[c % 2][t], &src[c * 64 + t], sizeof(float), pipe);
      pipe.producer_commit();
    }
    return;
  }
  float acc = 0;
  int c = 0;
  while (c < chunks) {
    pipe.consumer_wait();
    acc += buf[c % 2][63 - (t - 64) % 64] * (c + 1);
    pipe.consumer_release();
    c++;
  }
  out[blockIdx.x * (blockDim.x - 64) + t - 64] = acc;
}

// no roles: every thread copies its element and waits for the stage
// (every thread's commit), under a branch the whole block takes
__global__ void unified(const float *in, float *out, int n) {
  __shared__ float buf[2][128];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> st;
  auto block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, &st);
  unsigned t = threadIdx.x;
  float acc = 0;
  if (blockIdx.x % 2 == 0) {
    for (int k = 0; k < n; k++) {
      pipe.producer_acquire();
      cuda::memcpy_async(&buf[k % 2][t], &in[k * 128 + t], sizeof(float), pipe);
      pipe.producer_commit();
      pipe.consumer_wait();
      acc += buf[k % 2][127 - t];
      pipe.consumer_release();
    }
  }
  out[blockIdx.x * 128 + t] = acc;
}

// producers and consumers in one warp: the consumers' lanes wait for the
// producers' lanes, which run after them
__global__ void one_warp(float *out) {
  __shared__ float buf[16];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 1> st;
  auto block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, &st, threadIdx.x < 16 ? cuda::pipeline_role::consumer
                                                              : cuda::pipeline_role::producer);
  if (threadIdx.x < 16) {
    pipe.consumer_wait();
    out[threadIdx.x] = buf[threadIdx.x];
    pipe.consumer_release();
  } else {
    pipe.producer_acquire();
    buf[threadIdx.x - 16] = threadIdx.x;
    pipe.producer_commit();
  }
}

int main() {
  // the sample's shapes: A hA x wA, B wA x wB, block 16 x 32
  const int hA = 64, wA = 96, wB = 48, BS = 16;
  float *A, *B, *C;
  cudaMallocManaged(&A, hA * wA * sizeof(float));
  cudaMallocManaged(&B, wA * wB * sizeof(float));
  cudaMallocManaged(&C, hA * wB * sizeof(float));
  for (int i = 0; i < hA * wA; i++) A[i] = (float)(i % 7 - 3);
  for (int i = 0; i < wA * wB; i++) B[i] = (float)(i % 5 - 2) * 0.5f;
  MatrixMulAsyncCopyMultiStageSharedState<BS><<<dim3(wB / BS, hA / BS), dim3(BS, BS * 2)>>>(C, A, B, wA, wB);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "MultiStageSharedState launch");
  int bad = 0;
  for (int i = 0; i < hA; i++)
    for (int j = 0; j < wB; j++) {
      float s = 0;
      for (int k = 0; k < wA; k++) s += A[i * wA + k] * B[k * wB + j];
      bad += s != C[i * wB + j];
    }
  CHECK(bad == 0, "MatrixMulAsyncCopyMultiStageSharedState: %d of %d wrong", bad, hA * wB);

  const int blocks = 3, chunks = 7, cons = 96;
  float *in, *out;
  cudaMallocManaged(&in, blocks * chunks * 64 * sizeof(float));
  cudaMallocManaged(&out, blocks * 256 * sizeof(float));
  for (int i = 0; i < blocks * chunks * 64; i++) in[i] = (float)(i % 11);
  stream<<<blocks, 64 + cons>>>(in, out, chunks);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "stream launch");
  bad = 0;
  for (int b = 0; b < blocks; b++)
    for (int t = 0; t < cons; t++) {
      float s = 0;
      for (int c = 0; c < chunks; c++) s += in[(b * chunks + c) * 64 + 63 - t % 64] * (c + 1);
      bad += s != out[b * cons + t];
    }
  CHECK(bad == 0, "a pipeline with a count of producers: %d wrong", bad);

  const int n = 5;
  float *uin;
  cudaMallocManaged(&uin, n * 128 * sizeof(float));
  for (int i = 0; i < n * 128; i++) uin[i] = (float)(i % 13);
  unified<<<4, 128>>>(uin, out, n);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "unified launch");
  bad = 0;
  for (int b = 0; b < 4; b++)
    for (int t = 0; t < 128; t++) {
      float s = 0;
      for (int k = 0; b % 2 == 0 && k < n; k++) s += uin[k * 128 + 127 - t];
      bad += s != out[b * 128 + t];
    }
  CHECK(bad == 0, "a pipeline without roles: %d wrong", bad);

  one_warp<<<1, 32>>>(out);
  cudaError_t e = cudaDeviceSynchronize();
  CHECK(e == cudaErrorLaunchFailure, "roles within a warp: %s, expected cudaErrorLaunchFailure",
        cudaGetErrorString(e));
  if (fails) return 1;
  printf("PASS\n");
  return 0;
}
