/* gpusim_hip_ocml.h is the math gpusim's own HIP header cannot compute, as one table of HIP's names and the
   function of ROCm's math library (ocml) each calls. When the compile links ocml (gpusim run --device-libs DIR,
   which defines __GPUSIM_OCML; gpusim/frontends/device_libs.py) each name calls its ocml function, as ROCm's HIP
   headers do; without it each is an error naming the function where it is called. */
#ifndef GPUSIM_HIP_OCML_H
#define GPUSIM_HIP_OCML_H

/* F1..F4(type, HIP name, ocml function) for functions of 1 to 4 arguments of that type: the float ones (what
   gpusim_hip_math.h does not build from the backend's own expf, logf, sinf, ...), then the double ones
   (everything beyond the backend's own sqrt, fabs, floor, fma, ...) */
#define __GPUSIM_OCML_TABLE(F1, F2, F3, F4) \
  F1(float, tanf, __ocml_tan_f32) F1(float, asinf, __ocml_asin_f32) F1(float, acosf, __ocml_acos_f32) \
  F1(float, atanf, __ocml_atan_f32) F2(float, atan2f, __ocml_atan2_f32) F1(float, asinhf, __ocml_asinh_f32) \
  F1(float, acoshf, __ocml_acosh_f32) F1(float, atanhf, __ocml_atanh_f32) F1(float, erfcf, __ocml_erfc_f32) \
  F1(float, erfinvf, __ocml_erfinv_f32) F1(float, erfcinvf, __ocml_erfcinv_f32) \
  F1(float, lgammaf, __ocml_lgamma_f32) F1(float, tgammaf, __ocml_tgamma_f32) F1(float, cbrtf, __ocml_cbrt_f32) \
  F1(float, rcbrtf, __ocml_rcbrt_f32) F2(float, hypotf, __ocml_hypot_f32) \
  F2(float, remainderf, __ocml_remainder_f32) F1(float, logbf, __ocml_logb_f32) \
  F1(float, sinpif, __ocml_sinpi_f32) F1(float, cospif, __ocml_cospi_f32) F1(float, normcdff, __ocml_ncdf_f32) \
  F1(float, normcdfinvf, __ocml_ncdfinv_f32) F2(float, nextafterf, __ocml_nextafter_f32) \
  F2(float, rhypotf, __ocml_rhypot_f32) F3(float, norm3df, __ocml_len3_f32) \
  F3(float, rnorm3df, __ocml_rlen3_f32) F4(float, norm4df, __ocml_len4_f32) \
  F4(float, rnorm4df, __ocml_rlen4_f32) F1(float, erfcxf, __ocml_erfcx_f32) F1(float, j0f, __ocml_j0_f32) \
  F1(float, j1f, __ocml_j1_f32) F1(float, y0f, __ocml_y0_f32) F1(float, y1f, __ocml_y1_f32) \
  F1(float, cyl_bessel_i0f, __ocml_i0_f32) F1(float, cyl_bessel_i1f, __ocml_i1_f32) \
  F1(double, exp, __ocml_exp_f64) F1(double, exp2, __ocml_exp2_f64) F1(double, exp10, __ocml_exp10_f64) \
  F1(double, expm1, __ocml_expm1_f64) F1(double, log, __ocml_log_f64) F1(double, log2, __ocml_log2_f64) \
  F1(double, log10, __ocml_log10_f64) F1(double, log1p, __ocml_log1p_f64) F1(double, sin, __ocml_sin_f64) \
  F1(double, cos, __ocml_cos_f64) F1(double, tan, __ocml_tan_f64) F1(double, asin, __ocml_asin_f64) \
  F1(double, acos, __ocml_acos_f64) F1(double, atan, __ocml_atan_f64) F2(double, atan2, __ocml_atan2_f64) \
  F1(double, sinh, __ocml_sinh_f64) F1(double, cosh, __ocml_cosh_f64) F1(double, tanh, __ocml_tanh_f64) \
  F1(double, asinh, __ocml_asinh_f64) F1(double, acosh, __ocml_acosh_f64) F1(double, atanh, __ocml_atanh_f64) \
  F1(double, erf, __ocml_erf_f64) F1(double, erfc, __ocml_erfc_f64) F1(double, erfinv, __ocml_erfinv_f64) \
  F1(double, erfcinv, __ocml_erfcinv_f64) F1(double, lgamma, __ocml_lgamma_f64) \
  F1(double, tgamma, __ocml_tgamma_f64) F1(double, cbrt, __ocml_cbrt_f64) F1(double, rcbrt, __ocml_rcbrt_f64) \
  F1(double, rsqrt, __ocml_rsqrt_f64) F2(double, pow, __ocml_pow_f64) F2(double, hypot, __ocml_hypot_f64) \
  F2(double, remainder, __ocml_remainder_f64) F2(double, fdim, __ocml_fdim_f64) \
  F2(double, nextafter, __ocml_nextafter_f64) F1(double, logb, __ocml_logb_f64) \
  F1(double, sinpi, __ocml_sinpi_f64) F1(double, cospi, __ocml_cospi_f64) F1(double, normcdf, __ocml_ncdf_f64) \
  F1(double, normcdfinv, __ocml_ncdfinv_f64) F2(double, rhypot, __ocml_rhypot_f64) \
  F3(double, norm3d, __ocml_len3_f64) F3(double, rnorm3d, __ocml_rlen3_f64) F4(double, norm4d, __ocml_len4_f64) \
  F4(double, rnorm4d, __ocml_rlen4_f64) F1(double, erfcx, __ocml_erfcx_f64) F1(double, j0, __ocml_j0_f64) \
  F1(double, j1, __ocml_j1_f64) F1(double, y0, __ocml_y0_f64) F1(double, y1, __ocml_y1_f64) \
  F1(double, cyl_bessel_i0, __ocml_i0_f64) F1(double, cyl_bessel_i1, __ocml_i1_f64)

#ifdef __GPUSIM_OCML
#define __GPUSIM_OCML1(T, NAME, OCML) \
  extern "C" __device__ T OCML(T); \
  static __device__ __forceinline__ T NAME(T x) { return OCML(x); }
#define __GPUSIM_OCML2(T, NAME, OCML) \
  extern "C" __device__ T OCML(T, T); \
  static __device__ __forceinline__ T NAME(T x, T y) { return OCML(x, y); }
#define __GPUSIM_OCML3(T, NAME, OCML) \
  extern "C" __device__ T OCML(T, T, T); \
  static __device__ __forceinline__ T NAME(T x, T y, T z) { return OCML(x, y, z); }
#define __GPUSIM_OCML4(T, NAME, OCML) \
  extern "C" __device__ T OCML(T, T, T, T); \
  static __device__ __forceinline__ T NAME(T x, T y, T z, T w) { return OCML(x, y, z, w); }
__GPUSIM_OCML_TABLE(__GPUSIM_OCML1, __GPUSIM_OCML2, __GPUSIM_OCML3, __GPUSIM_OCML4)
#undef __GPUSIM_OCML1
#undef __GPUSIM_OCML2
#undef __GPUSIM_OCML3
#undef __GPUSIM_OCML4

/* sincos: ocml returns the sine and writes the cosine through a pointer to private memory */
extern "C" __device__ double __ocml_sincos_f64(double, __attribute__((address_space(5))) double *);
static __device__ __forceinline__ void sincos(double x, double *s, double *c) {
  double cosine;
  *s = __ocml_sincos_f64(x, (__attribute__((address_space(5))) double *)&cosine);
  *c = cosine;
}
#else
#define __GPUSIM_MISSING(T, NAME, ...) \
  static __device__ T NAME(__VA_ARGS__) __attribute__((unavailable( \
      "not in gpusim's HIP header (without ROCm's device libraries the backend cannot lower it; " \
      "link them with --device-libs DIR)")));
#define __GPUSIM_MISSING1(T, NAME, OCML) __GPUSIM_MISSING(T, NAME, T)
#define __GPUSIM_MISSING2(T, NAME, OCML) __GPUSIM_MISSING(T, NAME, T, T)
#define __GPUSIM_MISSING3(T, NAME, OCML) __GPUSIM_MISSING(T, NAME, T, T, T)
#define __GPUSIM_MISSING4(T, NAME, OCML) __GPUSIM_MISSING(T, NAME, T, T, T, T)
__GPUSIM_OCML_TABLE(__GPUSIM_MISSING1, __GPUSIM_MISSING2, __GPUSIM_MISSING3, __GPUSIM_MISSING4)
__GPUSIM_MISSING(void, sincos, double, double *, double *)
#undef __GPUSIM_MISSING1
#undef __GPUSIM_MISSING2
#undef __GPUSIM_MISSING3
#undef __GPUSIM_MISSING4
#undef __GPUSIM_MISSING
#endif
#undef __GPUSIM_OCML_TABLE
#endif
