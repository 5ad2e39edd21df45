/* nvtx3/nvToolsExt.h: NVIDIA's tools extension (NVTX) for cucc (our own
 * header). NVTX annotates a program for a profiler; with no profiler
 * attached the calls do nothing, and with cucc there is none: each is an
 * inline function that returns what NVTX returns then (pushes and pops
 * count the nesting depth, per host thread). C and C++. */
#ifndef CUCC_NVTOOLSEXT_H
#define CUCC_NVTOOLSEXT_H
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

#define NVTX_VERSION 3
#define NVTX_EVENT_ATTRIB_STRUCT_SIZE ((uint16_t)sizeof(nvtxEventAttributes_t))
#define NVTX_COLOR_UNKNOWN 0
#define NVTX_COLOR_ARGB 1
#define NVTX_MESSAGE_UNKNOWN 0
#define NVTX_MESSAGE_TYPE_ASCII 1
#define NVTX_MESSAGE_TYPE_UNICODE 2
#define NVTX_MESSAGE_TYPE_REGISTERED 3
#define NVTX_PAYLOAD_UNKNOWN 0
#define NVTX_PAYLOAD_TYPE_UNSIGNED_INT64 1
#define NVTX_PAYLOAD_TYPE_INT64 2
#define NVTX_PAYLOAD_TYPE_DOUBLE 3
#define NVTX_PAYLOAD_TYPE_UNSIGNED_INT32 4
#define NVTX_PAYLOAD_TYPE_INT32 5
#define NVTX_PAYLOAD_TYPE_FLOAT 6
#define NVTX_SUCCESS 0
#define NVTX_FAIL 1

typedef uint64_t nvtxRangeId_t;
typedef struct nvtxDomainRegistration_st *nvtxDomainHandle_t;
typedef struct nvtxStringRegistration_st *nvtxStringHandle_t;
typedef union nvtxMessageValue_t {
  const char *ascii;
  const wchar_t *unicode;
  nvtxStringHandle_t registered;
} nvtxMessageValue_t;
typedef struct nvtxEventAttributes_v2 {
  uint16_t version;
  uint16_t size;
  uint32_t category;
  int32_t colorType;
  uint32_t color;
  int32_t payloadType;
  int32_t reserved0;
  union {
    uint64_t ullValue;
    int64_t llValue;
    double dValue;
    uint32_t uiValue;
    int32_t iValue;
    float fValue;
  } payload;
  int32_t messageType;
  nvtxMessageValue_t message;
} nvtxEventAttributes_t;

#ifdef __cplusplus
static thread_local int cucc_nvtx_depth;
#else
static _Thread_local int cucc_nvtx_depth;
#endif
static inline int nvtxRangePushA(const char *m) { (void)m; return cucc_nvtx_depth++; }
static inline int nvtxRangePushW(const wchar_t *m) { (void)m; return cucc_nvtx_depth++; }
static inline int nvtxRangePushEx(const nvtxEventAttributes_t *a) { (void)a; return cucc_nvtx_depth++; }
static inline int nvtxRangePop(void) { return cucc_nvtx_depth > 0 ? --cucc_nvtx_depth : -2; }
static inline nvtxRangeId_t nvtxRangeStartA(const char *m) { (void)m; return 0; }
static inline nvtxRangeId_t nvtxRangeStartW(const wchar_t *m) { (void)m; return 0; }
static inline nvtxRangeId_t nvtxRangeStartEx(const nvtxEventAttributes_t *a) { (void)a; return 0; }
static inline void nvtxRangeEnd(nvtxRangeId_t id) { (void)id; }
static inline void nvtxMarkA(const char *m) { (void)m; }
static inline void nvtxMarkW(const wchar_t *m) { (void)m; }
static inline void nvtxMarkEx(const nvtxEventAttributes_t *a) { (void)a; }
static inline void nvtxNameOsThreadA(uint32_t t, const char *n) { (void)t, (void)n; }
static inline void nvtxNameOsThreadW(uint32_t t, const wchar_t *n) { (void)t, (void)n; }
static inline void nvtxNameCategoryA(uint32_t c, const char *n) { (void)c, (void)n; }
static inline void nvtxNameCategoryW(uint32_t c, const wchar_t *n) { (void)c, (void)n; }
static inline nvtxDomainHandle_t nvtxDomainCreateA(const char *n) { (void)n; return NULL; }
static inline nvtxDomainHandle_t nvtxDomainCreateW(const wchar_t *n) { (void)n; return NULL; }
static inline void nvtxDomainDestroy(nvtxDomainHandle_t d) { (void)d; }
static inline int nvtxDomainRangePushEx(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a) {
  (void)d, (void)a;
  return cucc_nvtx_depth++;
}
static inline int nvtxDomainRangePop(nvtxDomainHandle_t d) { (void)d; return nvtxRangePop(); }
static inline nvtxRangeId_t nvtxDomainRangeStartEx(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a) {
  (void)d, (void)a;
  return 0;
}
static inline void nvtxDomainRangeEnd(nvtxDomainHandle_t d, nvtxRangeId_t id) { (void)d, (void)id; }
static inline void nvtxDomainMarkEx(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a) { (void)d, (void)a; }
static inline nvtxStringHandle_t nvtxDomainRegisterStringA(nvtxDomainHandle_t d, const char *s) {
  (void)d, (void)s;
  return NULL;
}
static inline void nvtxDomainNameCategoryA(nvtxDomainHandle_t d, uint32_t c, const char *n) {
  (void)d, (void)c, (void)n;
}
static inline void nvtxInitialize(const void *r) { (void)r; }
#endif
