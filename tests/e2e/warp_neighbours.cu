// warp_neighbours.cu: a statement that stores to shared memory and reads
// the same array at another lane's word (`s[t + 1] = s[t] * 2`) runs as one
// instruction for the warp, as on a GPU: every lane's loads, then every
// lane's stores, whatever the C compiler's vectorization of a lane loop
// would make of it (gcc and clang differed: reads behind gave one answer
// under each). Reads stay within a warp's own words (no races between
// warps). Checked against a CPU model of the warp's instruction: reading
// behind, under a mask (a warp scan of `s[t] += s[t - k]` steps, plain and
// volatile), reading ahead (one lane loop), 2-D shared arrays, a
// __device__ function (its warp version), 1-D blocks and 2-D whole rows.
#include <cstdio>

#define SEG 40   // a warp's words: 32 lanes and room either side

__device__ void dscan(int *s, int l) {
  for (int k = 1; k < 32; k *= 2)
    if (l >= k) s[l] += s[l - k];
}

__global__ void nb(const int *in, int *out) {
  __shared__ int s[8 * SEG];
  __shared__ int s2[8][SEG];
  __shared__ int sc[8 * SEG];
  __shared__ int sd[8 * SEG];
  __shared__ int su[8 * SEG];
  int t = threadIdx.x + blockDim.x * threadIdx.y;
  int w = t / 32, l = t % 32, b = w * SEG + 4;
  int *o = out + (blockIdx.x * blockDim.x * blockDim.y + t) * 7;
  for (int j = l; j < SEG; j += 32) {
    int v = in[blockIdx.x * 997 + w * SEG + j];
    s[w * SEG + j] = v;
    s2[w][j] = v;
    sc[w * SEG + j] = v;
    sd[w * SEG + j] = v;
    su[w * SEG + j] = v;
  }
  __syncwarp();
  s[b + l + 1] = s[b + l] * 2 + 1;       // behind: reads the old s[b + l]
  s2[w][l + 2] = s2[w][l + 1] - s2[w][l + 3];
  __syncwarp();
  o[0] = s[b + l + 1];
  o[1] = s2[w][l + 2];
  // a warp scan, warp-synchronous: each step reads the words before its own
  for (int k = 1; k < 32; k *= 2)
    if (l >= k) sc[b + l] += sc[b + l - k];
  volatile int *vs = sd;
  for (int k = 1; k < 32; k *= 2)
    if (l >= k) vs[b + l] += vs[b + l - k] * 3;
  __syncwarp();
  o[2] = sc[b + l];
  o[3] = sd[b + l];
  s[b + l] = s[b + l + 1] - s[b + l + 2];   // ahead: the lanes in order
  __syncwarp();
  o[4] = s[b + l];
  dscan(sd + w * SEG, l);
  __syncwarp();
  o[5] = sd[w * SEG + l];
  unsigned u = l, ub = w * SEG;   // unsigned: u - k wraps below the first warp's words
  for (unsigned k = 1; k < 32; k *= 2)
    if (u >= k) su[ub + u] += su[ub + u - k];
  __syncwarp();
  o[6] = su[ub + u];
}

int main() {
  const int blocks = 3, nin = blocks * 997 + 8 * SEG;
  int *in, *out;
  cudaMallocManaged(&in, nin * sizeof(int));
  cudaMallocManaged(&out, blocks * 256 * 7 * sizeof(int));
  for (int i = 0; i < nin; i++) in[i] = (int)((i * 2654435761u) >> 26) - 32;
  const int shapes[][2] = {{256, 1}, {128, 1}, {64, 2}, {32, 4}};
  int bad = 0;
  for (auto &sh : shapes) {
    int nt = sh[0] * sh[1];
    nb<<<blocks, dim3(sh[0], sh[1])>>>(in, out);
    cudaDeviceSynchronize();
    for (int bi = 0; bi < blocks; bi++)
      for (int w = 0; w < nt / 32; w++) {
        int s[SEG], s2[SEG], sc[SEG], sd[SEG], su[SEG], r[32][7], old[SEG];
        for (int j = 0; j < SEG; j++) s[j] = s2[j] = sc[j] = sd[j] = su[j] = in[bi * 997 + w * SEG + j];
        // each statement: every lane's value from the old words, then the stores
        for (int j = 0; j < SEG; j++) old[j] = s[j];
        for (int l = 0; l < 32; l++) s[4 + l + 1] = old[4 + l] * 2 + 1;
        for (int j = 0; j < SEG; j++) old[j] = s2[j];
        for (int l = 0; l < 32; l++) s2[l + 2] = old[l + 1] - old[l + 3];
        for (int l = 0; l < 32; l++) r[l][0] = s[4 + l + 1], r[l][1] = s2[l + 2];
        for (int k = 1; k < 32; k *= 2) {
          for (int j = 0; j < SEG; j++) old[j] = sc[j];
          for (int l = k; l < 32; l++) sc[4 + l] = old[4 + l] + old[4 + l - k];
        }
        for (int k = 1; k < 32; k *= 2) {
          for (int j = 0; j < SEG; j++) old[j] = sd[j];
          for (int l = k; l < 32; l++) sd[4 + l] = old[4 + l] + old[4 + l - k] * 3;
        }
        for (int l = 0; l < 32; l++) r[l][2] = sc[4 + l], r[l][3] = sd[4 + l];
        for (int j = 0; j < SEG; j++) old[j] = s[j];
        for (int l = 0; l < 32; l++) s[4 + l] = old[4 + l + 1] - old[4 + l + 2];
        for (int l = 0; l < 32; l++) r[l][4] = s[4 + l];
        for (int k = 1; k < 32; k *= 2) {
          for (int j = 0; j < SEG; j++) old[j] = sd[j];
          for (int l = k; l < 32; l++) sd[l] = old[l] + old[l - k];
        }
        for (int l = 0; l < 32; l++) r[l][5] = sd[l];
        for (int k = 1; k < 32; k *= 2) {
          for (int j = 0; j < SEG; j++) old[j] = su[j];
          for (int l = k; l < 32; l++) su[l] = old[l] + old[l - k];
        }
        for (int l = 0; l < 32; l++) r[l][6] = su[l];
        for (int l = 0; l < 32; l++)
          for (int c = 0; c < 7; c++) {
            int got = out[((bi * nt) + w * 32 + l) * 7 + c];
            if (got != r[l][c] && bad++ < 10)
              printf("block %dx%d, block %d warp %d lane %d, value %d: got %d, expected %d\n", sh[0], sh[1], bi, w,
                     l, c, got, r[l][c]);
          }
      }
  }
  if (bad) {
    printf("FAIL: %d wrong\n", bad);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
