//! End-to-end test harness (see tests/).
