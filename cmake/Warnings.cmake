# One INTERFACE target carries the project's warning flags; every target links it.
add_library(gpusizer_warnings INTERFACE)
add_library(gpusizer::warnings ALIAS gpusizer_warnings)
target_compile_options(gpusizer_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
    -Wnon-virtual-dtor -Wold-style-cast -Wcast-align -Woverloaded-virtual
    -Wdouble-promotion -Wformat=2 -Wimplicit-fallthrough
    # GCC 12 reports -Wrestrict false positives inside std::string operator+ (GCC bug 105329).
    $<$<CXX_COMPILER_ID:GNU>:-Wno-restrict>>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>)
if(GPUSIZER_WERROR)
  target_compile_options(gpusizer_warnings INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
endif()
