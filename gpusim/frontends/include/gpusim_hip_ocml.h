/* gpusim_hip_ocml.h maps the math gpusim's own header cannot compute to ROCm's math library, ocml, as
   ROCm's HIP headers do. gpusim_hip_math.h includes it only when the compile links ocml (gpusim run
   --device-libs DIR, which defines __GPUSIM_OCML; gpusim/frontends/device_libs.py); without it these
   functions are named errors there. */
#ifndef GPUSIM_HIP_OCML_H
#define GPUSIM_HIP_OCML_H

#define __GPUSIM_OCML1(T, NAME, OCML) \
  extern "C" __device__ T OCML(T); \
  static __device__ __forceinline__ T NAME(T x) { return OCML(x); }
#define __GPUSIM_OCML2(T, NAME, OCML) \
  extern "C" __device__ T OCML(T, T); \
  static __device__ __forceinline__ T NAME(T x, T y) { return OCML(x, y); }

/* float: what gpusim_hip_math.h does not build from the backend's own expf, logf, sinf, ... */
__GPUSIM_OCML1(float, tanf, __ocml_tan_f32) __GPUSIM_OCML1(float, asinf, __ocml_asin_f32)
__GPUSIM_OCML1(float, acosf, __ocml_acos_f32) __GPUSIM_OCML1(float, atanf, __ocml_atan_f32)
__GPUSIM_OCML2(float, atan2f, __ocml_atan2_f32) __GPUSIM_OCML1(float, asinhf, __ocml_asinh_f32)
__GPUSIM_OCML1(float, acoshf, __ocml_acosh_f32) __GPUSIM_OCML1(float, atanhf, __ocml_atanh_f32)
__GPUSIM_OCML1(float, erfcf, __ocml_erfc_f32) __GPUSIM_OCML1(float, erfinvf, __ocml_erfinv_f32)
__GPUSIM_OCML1(float, erfcinvf, __ocml_erfcinv_f32) __GPUSIM_OCML1(float, lgammaf, __ocml_lgamma_f32)
__GPUSIM_OCML1(float, tgammaf, __ocml_tgamma_f32) __GPUSIM_OCML1(float, cbrtf, __ocml_cbrt_f32)
__GPUSIM_OCML1(float, rcbrtf, __ocml_rcbrt_f32) __GPUSIM_OCML2(float, hypotf, __ocml_hypot_f32)
__GPUSIM_OCML2(float, remainderf, __ocml_remainder_f32) __GPUSIM_OCML1(float, logbf, __ocml_logb_f32)
__GPUSIM_OCML1(float, sinpif, __ocml_sinpi_f32) __GPUSIM_OCML1(float, cospif, __ocml_cospi_f32)
__GPUSIM_OCML1(float, normcdff, __ocml_ncdf_f32) __GPUSIM_OCML1(float, normcdfinvf, __ocml_ncdfinv_f32)
__GPUSIM_OCML2(float, nextafterf, __ocml_nextafter_f32)

/* double: everything beyond the backend's own sqrt, fabs, floor, fma, ... */
__GPUSIM_OCML1(double, exp, __ocml_exp_f64) __GPUSIM_OCML1(double, exp2, __ocml_exp2_f64)
__GPUSIM_OCML1(double, exp10, __ocml_exp10_f64) __GPUSIM_OCML1(double, expm1, __ocml_expm1_f64)
__GPUSIM_OCML1(double, log, __ocml_log_f64) __GPUSIM_OCML1(double, log2, __ocml_log2_f64)
__GPUSIM_OCML1(double, log10, __ocml_log10_f64) __GPUSIM_OCML1(double, log1p, __ocml_log1p_f64)
__GPUSIM_OCML1(double, sin, __ocml_sin_f64) __GPUSIM_OCML1(double, cos, __ocml_cos_f64)
__GPUSIM_OCML1(double, tan, __ocml_tan_f64) __GPUSIM_OCML1(double, asin, __ocml_asin_f64)
__GPUSIM_OCML1(double, acos, __ocml_acos_f64) __GPUSIM_OCML1(double, atan, __ocml_atan_f64)
__GPUSIM_OCML2(double, atan2, __ocml_atan2_f64) __GPUSIM_OCML1(double, sinh, __ocml_sinh_f64)
__GPUSIM_OCML1(double, cosh, __ocml_cosh_f64) __GPUSIM_OCML1(double, tanh, __ocml_tanh_f64)
__GPUSIM_OCML1(double, asinh, __ocml_asinh_f64) __GPUSIM_OCML1(double, acosh, __ocml_acosh_f64)
__GPUSIM_OCML1(double, atanh, __ocml_atanh_f64) __GPUSIM_OCML1(double, erf, __ocml_erf_f64)
__GPUSIM_OCML1(double, erfc, __ocml_erfc_f64) __GPUSIM_OCML1(double, erfinv, __ocml_erfinv_f64)
__GPUSIM_OCML1(double, erfcinv, __ocml_erfcinv_f64) __GPUSIM_OCML1(double, lgamma, __ocml_lgamma_f64)
__GPUSIM_OCML1(double, tgamma, __ocml_tgamma_f64) __GPUSIM_OCML1(double, cbrt, __ocml_cbrt_f64)
__GPUSIM_OCML1(double, rcbrt, __ocml_rcbrt_f64) __GPUSIM_OCML1(double, rsqrt, __ocml_rsqrt_f64)
__GPUSIM_OCML2(double, pow, __ocml_pow_f64) __GPUSIM_OCML2(double, hypot, __ocml_hypot_f64)
__GPUSIM_OCML2(double, remainder, __ocml_remainder_f64)
__GPUSIM_OCML2(double, fdim, __ocml_fdim_f64) __GPUSIM_OCML2(double, nextafter, __ocml_nextafter_f64)
__GPUSIM_OCML1(double, logb, __ocml_logb_f64) __GPUSIM_OCML1(double, sinpi, __ocml_sinpi_f64)
__GPUSIM_OCML1(double, cospi, __ocml_cospi_f64) __GPUSIM_OCML1(double, normcdf, __ocml_ncdf_f64)
__GPUSIM_OCML1(double, normcdfinv, __ocml_ncdfinv_f64)

/* sincos: ocml returns the sine and writes the cosine through a pointer to private memory */
extern "C" __device__ double __ocml_sincos_f64(double, __attribute__((address_space(5))) double *);
static __device__ __forceinline__ void sincos(double x, double *s, double *c) {
  double cosine;
  *s = __ocml_sincos_f64(x, (__attribute__((address_space(5))) double *)&cosine);
  *c = cosine;
}

#undef __GPUSIM_OCML1
#undef __GPUSIM_OCML2
#endif
