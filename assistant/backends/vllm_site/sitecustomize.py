"""Run at start-up by every Python process of a vLLM server that intercpt launches.

vLLM starts helper interpreters of its own (model inspection, engine core), so the
broken-add-on guard must run in each of them; intercpt puts this folder on the
server's PYTHONPATH, which makes Python import this module first thing.
"""

from assistant._torch_addons import hide_broken_torch_addons

hide_broken_torch_addons()
