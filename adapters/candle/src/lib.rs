//! candle adapter
