// Timeline webview entry. Filled in by the timeline feature.
export {};
