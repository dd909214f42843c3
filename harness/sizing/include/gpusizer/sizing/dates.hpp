// Calendar arithmetic for price dates and AWS CLI timestamps, in UTC. Days and seconds are
// counted from 1970-01-01. Nothing here reads a time zone database: AWS prints UTC ("Z") or an
// explicit offset ("+00:00"), and catalog dates are plain calendar dates.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpusizer::sizing {

// "2014-01-06T07:10:55.000Z" (CLI v1), "2014-01-06T07:10:55+00:00" (CLI v2), "...Z" without
// fractions; seconds since the epoch, nullopt when the text is not such a timestamp.
std::optional<std::int64_t> parse_timestamp(std::string_view text);

// "2026-07-20"; days since the epoch, nullopt when not a valid calendar date.
std::optional<std::int64_t> parse_date(std::string_view text);

// The day a price's `as_of` names: a date ("2026-07-20"), a month ("2025-06": its first day, so
// the age is never understated), a timestamp, or an AWS Price List version ("20240528203522").
std::optional<std::int64_t> as_of_day(std::string_view as_of);

std::int64_t today_utc();                        // days since the epoch, from the system clock
std::string format_day(std::int64_t day);        // "2026-07-20"
std::string format_timestamp(std::int64_t sec);  // "2026-07-20T13:44:30Z"

}  // namespace gpusizer::sizing
