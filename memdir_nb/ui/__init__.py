"""What people look at: the demo dir, plain-Python view-models, ipywidgets, and notebook helpers."""
