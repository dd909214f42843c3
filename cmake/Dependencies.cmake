# All dependencies come from installed packages (Debian apt, NVIDIA's CUDA toolkit, or the
# nvidia-nvml-dev wheel unpacked by scripts/setup.sh). Nothing is downloaded here.
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 2.1 REQUIRED)
find_package(benchmark 1.7 REQUIRED)
find_package(Threads REQUIRED)
find_package(OpenBLAS CONFIG REQUIRED)
find_package(PkgConfig REQUIRED)
pkg_check_modules(URING IMPORTED_TARGET liburing)
if(GPUSIZER_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()

add_library(gpusizer_openblas INTERFACE)
target_include_directories(gpusizer_openblas SYSTEM INTERFACE ${OpenBLAS_INCLUDE_DIRS})
target_link_libraries(gpusizer_openblas INTERFACE ${OpenBLAS_LIBRARIES})

# CUDA is optional: check_language, never project(... LANGUAGES CUDA).
set(GPUSIZER_HAVE_CUDA OFF)
if(GPUSIZER_ENABLE_CUDA)
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      # Release builds cover every generation AWS rents (T4 .. B200); CI passes one to save time.
      set(CMAKE_CUDA_ARCHITECTURES 75 80 86 89 90 100)
    endif()
    enable_language(CUDA)
    set(CMAKE_CUDA_STANDARD 20)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    find_package(CUDAToolkit REQUIRED)
    set(GPUSIZER_HAVE_CUDA ON)
  elseif(GPUSIZER_REQUIRE_CUDA)
    message(FATAL_ERROR "gpusizer: GPUSIZER_REQUIRE_CUDA is ON but no CUDA compiler was found "
      "(put the toolkit's bin/ on PATH or pass -DCMAKE_CUDA_COMPILER=<path to nvcc>)")
  else()
    message(STATUS "gpusizer: no CUDA compiler found; building the CPU backend only")
  endif()
elseif(GPUSIZER_REQUIRE_CUDA)
  message(FATAL_ERROR "gpusizer: GPUSIZER_REQUIRE_CUDA=ON contradicts GPUSIZER_ENABLE_CUDA=OFF")
endif()

# NVML header: the toolkit's when it has one, else the wheel's (scripts/setup.sh unpacks it
# into .deps/nvml/include). NVML itself is loaded with dlopen at run time. Never fatal: without
# the header the build goes on with GPU telemetry off (harness/telemetry links nvml_absent.cpp)
# and every GPU record's telemetry says why. A folder named with GPUSIZER_NVML_INCLUDE_DIR is the
# only place searched; GPUSIZER_WITH_NVML=OFF skips the search.
set(GPUSIZER_HAVE_NVML OFF)
set(GPUSIZER_NVML_ABSENT_REASON "")
if(NOT GPUSIZER_WITH_NVML)
  set(GPUSIZER_NVML_ABSENT_REASON "built without nvml.h: GPUSIZER_WITH_NVML=OFF")
else()
  if(GPUSIZER_NVML_INCLUDE_DIR)
    find_path(GPUSIZER_NVML_HEADER_DIR nvml.h PATHS ${GPUSIZER_NVML_INCLUDE_DIR}
      NO_DEFAULT_PATH NO_CACHE)
    set(nvml_where "in GPUSIZER_NVML_INCLUDE_DIR=${GPUSIZER_NVML_INCLUDE_DIR}")
  else()
    find_path(GPUSIZER_NVML_HEADER_DIR nvml.h
      HINTS ${CMAKE_CURRENT_SOURCE_DIR}/.deps/nvml/include ${CUDAToolkit_INCLUDE_DIRS}
            /usr/local/cuda/include
      NO_CACHE)
    # No ';' in the reason: it becomes a compile definition (a CMake list would split it).
    string(CONCAT nvml_where "in .deps/nvml/include, the CUDA toolkit or the system folders "
      "(run scripts/setup.sh or pass -DGPUSIZER_NVML_INCLUDE_DIR=<dir>)")
  endif()
  if(GPUSIZER_NVML_HEADER_DIR)
    set(GPUSIZER_HAVE_NVML ON)
  else()
    set(GPUSIZER_NVML_ABSENT_REASON "built without nvml.h: not found ${nvml_where}")
  endif()
endif()
if(GPUSIZER_HAVE_NVML)
  message(STATUS "gpusizer: nvml.h from ${GPUSIZER_NVML_HEADER_DIR}; GPU telemetry: on")
else()
  message(STATUS "gpusizer: GPU telemetry: OFF (${GPUSIZER_NVML_ABSENT_REASON})")
endif()

# MPI is optional like CUDA: with it, `mpirun ... gpusizer run` makes one fleet report
# (bench/mpi); without it bench links fleet_absent.cpp, which refuses a launch of several ranks.
set(GPUSIZER_HAVE_MPI OFF)
if(GPUSIZER_WITH_MPI)
  find_package(MPI COMPONENTS C QUIET)
  if(MPI_C_FOUND)
    set(GPUSIZER_HAVE_MPI ON)
    message(STATUS "gpusizer: MPI: on (MPI ${MPI_C_VERSION}, ${MPI_C_COMPILER})")
  else()
    message(STATUS "gpusizer: MPI: OFF (no MPI found: install libopenmpi-dev for multi-node runs)")
  endif()
else()
  message(STATUS "gpusizer: MPI: OFF (GPUSIZER_WITH_MPI=OFF)")
endif()

# OpenSSL is optional like CUDA: with libcrypto, `gpusizer verify` checks the PKCS7 signature of
# the EC2 instance identity a report carries (harness/core identity_signature_openssl.cpp);
# without it core links identity_signature_absent.cpp and verify says the check was not built.
set(GPUSIZER_HAVE_OPENSSL OFF)
if(GPUSIZER_WITH_OPENSSL)
  find_package(OpenSSL COMPONENTS Crypto)
  if(OPENSSL_FOUND)
    set(GPUSIZER_HAVE_OPENSSL ON)
  endif()
endif()
if(GPUSIZER_HAVE_OPENSSL)
  message(STATUS "gpusizer: OpenSSL ${OPENSSL_VERSION}: identity signatures checked by verify")
else()
  message(STATUS "gpusizer: identity signatures: OFF (no OpenSSL; install libssl-dev)")
endif()
