"""The counterfeit variant of Monopoly Niente è come sembra: fake money among the notes and
the Imprevisti cards, and the decoder that checks them. Only where the edition has
``counterfeits`` does any of it run: the decoder chips (``chips``), the electronic notes and
the check window of a payment (``notes``), the Imprevisti deck (``chance``) and the printed
money's serials (``serials``)."""
