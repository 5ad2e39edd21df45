// vote.cu: warp votes under divergence. Inside `if (lane & 1)` only the odd
// lanes are active, so __activemask() is 0xaaaaaaaa; ballots, any and all
// act on the lanes that are there.
#include <cstdio>

__global__ void votes(unsigned *out) {
  int lane = threadIdx.x % 32;
  if (lane & 1) {
    unsigned active = __activemask();
    unsigned b = __ballot_sync(active, lane % 3 == 0);
    int any = __any_sync(active, lane == 7);
    int all = __all_sync(active, lane > 0);
    if (lane == 1) { out[0] = active; out[1] = b; out[2] = any; out[3] = all; }
  } else {
    unsigned active = __activemask();
    unsigned b = __ballot_sync(active, lane < 8);
    if (lane == 0) { out[4] = active; out[5] = b; }
  }
  unsigned whole = __ballot_sync(0xffffffffu, lane % 5 == 0);
  if (lane == 0) out[6] = whole;
}

int main() {
  unsigned *d, h[8];
  cudaMalloc(&d, sizeof h);
  votes<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("odd lanes:  active %08x  ballot(lane%%3==0) %08x  any(lane==7) %u  all(lane>0) %u\n", h[0], h[1], h[2], h[3]);
  printf("even lanes: active %08x  ballot(lane<8) %08x\n", h[4], h[5]);
  printf("whole warp: ballot(lane%%5==0) %08x\n", h[6]);
  bool ok = h[0] == 0xaaaaaaaau && h[1] == 0x08208208u && h[2] == 1 && h[3] == 1 && h[4] == 0x55555555u &&
            h[5] == 0x55u && h[6] == 0x42108421u;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
