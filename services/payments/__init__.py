"""Payments: one client for Mollie's v2 API and a built-in test provider that speaks it."""
