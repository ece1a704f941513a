"""The Gradio web UI of intercpt."""
