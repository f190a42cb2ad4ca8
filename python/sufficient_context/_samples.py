"""Built-in sample data for the demo and the docs: a small legal-domain retrieval result."""

from __future__ import annotations

SAMPLE_QUERY = "What is the punishment for cheating under Section 420 of the Indian Penal Code?"
SAMPLE_UNANSWERED_QUERY = "Is cheating under Section 420 bailable?"  # the chunks never say
SAMPLE_PARTIAL_QUERY = "What does the Indian Penal Code say about cheating and property?"  # "say" is not there
SAMPLE_OFF_TOPIC_QUERY = "What is the capital of France?"  # nothing retrieved scores above the gate

SAMPLE_CHUNKS: list[dict[str, object]] = [
    {
        "id": "IPC_420_0",
        "content": (
            "Section 420 of the Indian Penal Code: whoever cheats and thereby dishonestly induces the person "
            "deceived to deliver any property to any person shall be punished with imprisonment of either "
            "description for a term which may extend to seven years, and shall also be liable to fine."
        ),
        "metadata": {"statute": "IPC", "section": "420", "source_path": "statutes/ipc.pdf", "page_number": 112},
    },
    {
        "id": "IPC_415_0",
        "content": (
            "Section 415 defines cheating. Whoever, by deceiving any person, fraudulently or dishonestly induces "
            "the person so deceived to deliver any property is said to cheat."
        ),
        "metadata": {"statute": "IPC", "section": "415", "source_path": "statutes/ipc.pdf", "page_number": 110},
    },
    {
        "id": "CrPC_154_0",
        "content": (
            "Every information relating to the commission of a cognizable offence, if given orally to an officer "
            "in charge of a police station, shall be reduced to writing by him or under his direction."
        ),
        "metadata": {"statute": "CrPC", "section": "154", "source_path": "statutes/crpc.pdf", "page_number": 48},
    },
]

# One meta sentence, one the cited chunk backs, one it contradicts (it says seven years, not ten; nothing on bail).
SAMPLE_ANSWER = (
    "Based on the retrieved documents, here is the answer. "
    "Cheating under Section 420 is punishable with imprisonment of up to seven years and a fine [IPC_420_0]. "
    "The offence is bailable and punishable with up to ten years [IPC_420_0]."
)
