"""First names, cities and interface languages for demo members, per target country.

A city's region is the ISO 3166-2 subdivision people there would name: provinces (NL, BE),
states (DE, AT, US, AU), cantons (CH, LU), regions (IT, FR, ES, DK, FI, NZ), voivodeships
(PL), counties (NO, SE, IE), provinces and territories (CA) and the nations of GB.
"""

COUNTRY_LANGUAGE: dict[str, str] = {
    "NL": "nl", "BE": "nl", "DE": "de", "AT": "de", "CH": "de", "LU": "de", "IT": "it",
    "FR": "fr", "ES": "es", "PL": "pl", "DK": "da", "FI": "fi", "NO": "nb", "SE": "sv",
    "GB": "en", "IE": "en", "US": "en", "CA": "en", "AU": "en", "NZ": "en",
}  # fmt: skip

FEMALE_NAMES: dict[str, tuple[str, ...]] = {
    "NL": (
        "Anouk", "Sanne", "Lotte", "Femke", "Iris", "Marloes", "Eva", "Fleur", "Lieke", "Noor",
        "Mirjam", "Ingrid", "Esther", "Petra", "Annemiek", "Maaike", "Roos", "Ilse", "Karin",
        "Yvonne", "Saskia", "Joyce", "Wendy", "Daphne", "Tessa", "Marieke", "Liesbeth", "Jolanda",
    ),
    "BE": (
        "Lien", "Elke", "Griet", "Sofie", "Leen", "An", "Katrien", "Hanne", "Fien", "Nele",
        "Marijke", "Hilde", "Veerle", "Els", "Ilse", "Kaat", "Lore", "Jana", "Marie", "Elise",
        "Ann-Sophie", "Liesbeth", "Inge", "Caroline", "Tine", "Evelien", "Sarah", "Goedele",
    ),
    "DE": (
        "Anna", "Lena", "Julia", "Katharina", "Sabine", "Petra", "Claudia", "Susanne", "Nicole",
        "Stefanie", "Sandra", "Jana", "Lea", "Hannah", "Sophie", "Laura", "Miriam", "Franziska",
        "Anja", "Kerstin", "Birgit", "Heike", "Jessica", "Melanie", "Carina", "Ute", "Silke",
    ),
    "AT": (
        "Magdalena", "Theresa", "Johanna", "Katharina", "Elisabeth", "Verena", "Christina",
        "Barbara", "Andrea", "Sabine", "Martina", "Birgit", "Anna", "Lisa", "Sarah", "Marlene",
        "Valentina", "Hannah", "Leonie", "Michaela", "Daniela", "Gerlinde", "Romana", "Carina",
        "Monika", "Viktoria", "Isabella",
    ),
    "CH": (
        "Nadia", "Seraina", "Corinne", "Manuela", "Brigitte", "Ursula", "Regula", "Franziska",
        "Barbara", "Daniela", "Andrea", "Jasmin", "Lara", "Laura", "Mia", "Nina", "Selina", "Anina",
        "Chiara", "Deborah", "Fabienne", "Rahel", "Tamara", "Vreni", "Sabrina", "Livia", "Martina",
    ),
    "LU": (
        "Mia", "Emma", "Léa", "Sophie", "Anne", "Claudine", "Nathalie", "Martine", "Josiane",
        "Carole", "Sandra", "Tessy", "Joëlle", "Mandy", "Lynn", "Sarah", "Julie", "Laura",
        "Chantal", "Monique", "Michèle", "Danielle", "Patricia", "Isabelle", "Lisa", "Nora",
        "Fernande",
    ),
    "IT": (
        "Giulia", "Francesca", "Chiara", "Sara", "Valentina", "Alessia", "Martina", "Federica",
        "Elisa", "Silvia", "Paola", "Roberta", "Simona", "Laura", "Elena", "Anna", "Giorgia",
        "Ilaria", "Beatrice", "Monica", "Cristina", "Daniela", "Antonella", "Serena", "Lucia",
        "Marta", "Rossella",
    ),
    "FR": (
        "Camille", "Manon", "Chloé", "Léa", "Julie", "Émilie", "Céline", "Sophie", "Nathalie",
        "Isabelle", "Sandrine", "Aurélie", "Mélanie", "Claire", "Pauline", "Lucie", "Margaux",
        "Inès", "Élodie", "Amandine", "Virginie", "Stéphanie", "Valérie", "Anaïs", "Charlotte",
        "Brigitte", "Océane",
    ),
    "ES": (
        "Lucía", "María", "Carmen", "Laura", "Marta", "Paula", "Sara", "Elena", "Cristina", "Ana",
        "Isabel", "Pilar", "Rocío", "Nuria", "Alba", "Irene", "Raquel", "Beatriz", "Silvia",
        "Patricia", "Montse", "Inmaculada", "Lorena", "Claudia", "Noelia", "Ainhoa", "Marisol",
    ),
    "PL": (
        "Anna", "Katarzyna", "Magdalena", "Agnieszka", "Joanna", "Aleksandra", "Monika", "Ewa",
        "Małgorzata", "Natalia", "Paulina", "Karolina", "Marta", "Justyna", "Zuzanna", "Julia",
        "Dorota", "Beata", "Iwona", "Agata", "Weronika", "Kinga", "Barbara", "Grażyna", "Sylwia",
        "Izabela", "Emilia",
    ),
    "DK": (
        "Mette", "Anne", "Camilla", "Louise", "Sofie", "Maja", "Ida", "Emma", "Freja", "Signe",
        "Line", "Trine", "Lone", "Hanne", "Susanne", "Pernille", "Helle", "Karina", "Stine",
        "Cecilie", "Julie", "Katrine", "Rikke", "Birgitte", "Dorthe", "Astrid", "Nanna",
    ),
    "FI": (
        "Aino", "Emilia", "Sanna", "Laura", "Johanna", "Anni", "Elina", "Heidi", "Jenni", "Katja",
        "Minna", "Päivi", "Riikka", "Sari", "Tiina", "Tuuli", "Veera", "Iida", "Ella", "Helmi",
        "Kaisa", "Liisa", "Marjatta", "Noora", "Outi", "Pirjo", "Satu",
    ),
    "NO": (
        "Ingrid", "Kari", "Nora", "Emma", "Thea", "Silje", "Ida", "Hanne", "Marte", "Ragnhild",
        "Solveig", "Tone", "Guro", "Hilde", "Kristin", "Linn", "Maren", "Sigrid", "Tuva", "Vilde",
        "Astrid", "Liv", "Randi", "Synnøve", "Åse", "Camilla", "Marianne",
    ),
    "SE": (
        "Elin", "Linnea", "Frida", "Sara", "Emma", "Maja", "Ebba", "Klara", "Johanna", "Karin",
        "Malin", "Lena", "Annika", "Ulrika", "Helena", "Sofia", "Agnes", "Alva", "Matilda",
        "Ingela", "Lotta", "Cecilia", "Hanna", "Therese", "Jenny", "Britt", "Moa",
    ),
    "GB": (
        "Charlotte", "Emily", "Sophie", "Olivia", "Amelia", "Hannah", "Lucy", "Jessica", "Rebecca",
        "Sarah", "Claire", "Joanne", "Nicola", "Gemma", "Kirsty", "Rachel", "Helen", "Alison",
        "Victoria", "Harriet", "Eleanor", "Poppy", "Georgia", "Bethan", "Fiona", "Isla", "Jenny",
    ),
    "IE": (
        "Aoife", "Siobhán", "Niamh", "Ciara", "Sinéad", "Orla", "Caoimhe", "Róisín", "Saoirse",
        "Áine", "Clodagh", "Deirdre", "Gráinne", "Emer", "Síle", "Méabh", "Aisling", "Maeve",
        "Fiona", "Mary", "Sarah", "Emma", "Laura", "Rachel", "Katie", "Ellen", "Nuala",
    ),
    "US": (
        "Ashley", "Jessica", "Amanda", "Brittany", "Megan", "Lauren", "Taylor", "Madison", "Kayla",
        "Samantha", "Jennifer", "Stephanie", "Heather", "Amber", "Brooke", "Kelsey", "Morgan",
        "Courtney", "Alyssa", "Destiny", "Mackenzie", "Savannah", "Danielle", "Tiffany", "Linda",
        "Denise", "Crystal",
    ),
    "CA": (
        "Emily", "Chloe", "Sarah", "Jessica", "Ashley", "Hannah", "Megan", "Julie", "Geneviève",
        "Mélanie", "Isabelle", "Nathalie", "Amélie", "Brianna", "Kaitlyn", "Madison", "Avery",
        "Paige", "Shannon", "Tara", "Heather", "Lindsay", "Erin", "Kristen", "Danielle", "Jocelyn",
        "Mackenzie",
    ),
    "AU": (
        "Chloe", "Mia", "Isla", "Sienna", "Matilda", "Ruby", "Zoe", "Jess", "Kylie", "Tahlia",
        "Brooke", "Amy", "Bec", "Jade", "Kirra", "Shannon", "Courtney", "Leanne", "Narelle",
        "Kristy", "Belinda", "Tegan", "Ellie", "Georgia", "Hayley", "Skye", "Mel",
    ),
    "NZ": (
        "Aroha", "Mere", "Anahera", "Kiri", "Ngaio", "Ruby", "Isla", "Olivia", "Charlotte",
        "Amelia", "Hannah", "Georgia", "Kate", "Sophie", "Emma", "Lucy", "Rachel", "Jess", "Hayley",
        "Tui", "Kaia", "Maia", "Stacey", "Nicola", "Anna", "Claire", "Frances",
    ),
}  # fmt: skip

MALE_NAMES: dict[str, tuple[str, ...]] = {
    "NL": (
        "Daan", "Bram", "Thijs", "Jeroen", "Joost", "Sander", "Ruben", "Niels", "Sem", "Lars",
        "Koen", "Martijn", "Wouter", "Bas", "Pieter", "Maarten", "Erik", "Gerard", "Henk", "Jan",
        "Kees", "Rutger", "Stijn", "Tim", "Dennis", "Robbert", "Wim", "Frank",
    ),
    "BE": (
        "Wout", "Jens", "Pieter-Jan", "Tom", "Bart", "Koen", "Dries", "Stijn", "Jef", "Wim", "Gert",
        "Filip", "Luc", "Dirk", "Geert", "Jasper", "Arne", "Seppe", "Tibo", "Kobe", "Bram",
        "Maarten", "Steven", "Kristof", "Thomas", "Ward", "Lander", "Joris",
    ),
    "DE": (
        "Lukas", "Jonas", "Felix", "Maximilian", "Tobias", "Florian", "Sebastian", "Michael",
        "Thomas", "Andreas", "Stefan", "Markus", "Jens", "Matthias", "Christian", "Daniel", "Jan",
        "Tim", "Niklas", "Moritz", "Paul", "Uwe", "Frank", "Jürgen", "Holger", "Dirk", "Sven",
    ),
    "AT": (
        "Lukas", "Florian", "Matthias", "Stefan", "Alexander", "Dominik", "Tobias", "Simon",
        "Jakob", "Elias", "Maximilian", "Bernhard", "Gerhard", "Wolfgang", "Herbert", "Manfred",
        "Thomas", "Christoph", "Markus", "Andreas", "Martin", "Johannes", "Klaus", "Georg",
        "Leopold", "Raphael", "Valentin",
    ),
    "CH": (
        "Luca", "Noah", "Jonas", "Nico", "Reto", "Urs", "Beat", "Marco", "Adrian", "Patrick",
        "Daniel", "Stefan", "Thomas", "Christian", "Roman", "Fabian", "Dominik", "Lukas", "Silvan",
        "Mathias", "Andri", "Gian", "Remo", "Samuel", "Hansruedi", "Pascal", "Matteo",
    ),
    "LU": (
        "Luc", "Jang", "Pit", "Tom", "Marc", "Yves", "Gilles", "Jeff", "Ben", "Max", "Noah", "Liam",
        "Gabriel", "Paul", "Laurent", "Claude", "Serge", "Patrick", "Romain", "Fernand",
        "Christophe", "Sven", "Mike", "Joé", "Raoul", "Steve", "Georges",
    ),
    "IT": (
        "Marco", "Luca", "Alessandro", "Andrea", "Matteo", "Lorenzo", "Francesco", "Davide",
        "Simone", "Federico", "Riccardo", "Giovanni", "Stefano", "Paolo", "Roberto", "Massimo",
        "Fabio", "Giuseppe", "Antonio", "Salvatore", "Emanuele", "Tommaso", "Gabriele", "Nicola",
        "Vincenzo", "Claudio", "Leonardo",
    ),
    "FR": (
        "Thomas", "Nicolas", "Julien", "Maxime", "Antoine", "Alexandre", "Hugo", "Lucas", "Mathieu",
        "Romain", "Guillaume", "Sébastien", "Olivier", "Philippe", "Laurent", "Christophe",
        "Jérôme", "Benoît", "Théo", "Louis", "Quentin", "Damien", "Franck", "Pierre", "Arnaud",
        "Yannick", "Clément",
    ),
    "ES": (
        "Javier", "Alejandro", "Daniel", "Pablo", "Sergio", "David", "Carlos", "Jorge", "Álvaro",
        "Adrián", "Diego", "Iván", "Rubén", "Manuel", "Antonio", "Francisco", "José", "Miguel",
        "Raúl", "Óscar", "Jordi", "Iker", "Unai", "Fernando", "Alberto", "Marcos", "Hugo",
    ),
    "PL": (
        "Piotr", "Krzysztof", "Tomasz", "Paweł", "Marcin", "Michał", "Jakub", "Kamil", "Łukasz",
        "Mateusz", "Bartosz", "Adam", "Grzegorz", "Wojciech", "Dariusz", "Rafał", "Sebastian",
        "Szymon", "Filip", "Damian", "Przemysław", "Andrzej", "Marek", "Robert", "Maciej",
        "Jarosław", "Kacper",
    ),
    "DK": (
        "Mads", "Rasmus", "Mikkel", "Frederik", "Kasper", "Anders", "Søren", "Jesper", "Morten",
        "Henrik", "Lars", "Jens", "Niels", "Christian", "Thomas", "Jakob", "Emil", "Oliver",
        "Magnus", "Lasse", "Bo", "Torben", "Kim", "Ulrik", "Steffen", "Martin", "Jonas",
    ),
    "FI": (
        "Mikko", "Juha", "Jussi", "Antti", "Ville", "Janne", "Teemu", "Matti", "Pekka", "Timo",
        "Sami", "Jari", "Tuomas", "Lauri", "Eero", "Eetu", "Aleksi", "Joonas", "Olli", "Heikki",
        "Kalle", "Risto", "Markku", "Ilkka", "Petri", "Onni", "Veikko",
    ),
    "NO": (
        "Ole", "Lars", "Magnus", "Henrik", "Jonas", "Sindre", "Eirik", "Håkon", "Anders",
        "Kristian", "Sigurd", "Even", "Espen", "Øyvind", "Bjørn", "Knut", "Geir", "Trond", "Tore",
        "Vegard", "Stian", "Martin", "Erlend", "Jørgen", "Per", "Odd", "Are",
    ),
    "SE": (
        "Erik", "Johan", "Anders", "Lars", "Mikael", "Fredrik", "Oskar", "Gustav", "Viktor", "Axel",
        "Emil", "Filip", "Linus", "Henrik", "Magnus", "Mattias", "Niklas", "Per", "Björn", "Göran",
        "Stefan", "Jonas", "Hampus", "Elias", "Olle", "Sten", "Kalle",
    ),
    "GB": (
        "James", "Oliver", "Harry", "George", "Jack", "Thomas", "William", "Daniel", "Matthew",
        "Ben", "Sam", "Tom", "Josh", "Luke", "Callum", "Rhys", "Gareth", "Stuart", "Ian", "Graham",
        "Neil", "Gavin", "Alistair", "Craig", "Owen", "Alfie", "Rory",
    ),
    "IE": (
        "Seán", "Ciarán", "Darragh", "Cian", "Oisín", "Eoin", "Pádraig", "Colm", "Niall", "Conor",
        "Donal", "Fionn", "Liam", "Cathal", "Diarmuid", "Rónán", "Tadhg", "Shane", "Declan",
        "Kevin", "Brian", "Barry", "Dermot", "Fergal", "Killian", "Aidan", "Eamon",
    ),
    "US": (
        "Michael", "Christopher", "Matthew", "Joshua", "Tyler", "Brandon", "Justin", "Ryan",
        "Austin", "Kyle", "Cody", "Jason", "Brian", "Kevin", "Eric", "Derek", "Trevor", "Chase",
        "Logan", "Hunter", "Mason", "Caleb", "Dylan", "Travis", "Marcus", "Scott", "Greg",
    ),
    "CA": (
        "Liam", "Ethan", "Noah", "Owen", "Connor", "Brett", "Tyler", "Jordan", "Mathieu", "Étienne",
        "Jean-François", "Marc-André", "Olivier", "Gabriel", "Dylan", "Cole", "Brayden", "Wyatt",
        "Shawn", "Darren", "Kyle", "Colin", "Graham", "Trevor", "Derek", "Mitchell", "Ryan",
    ),
    "AU": (
        "Jack", "Lachlan", "Cooper", "Riley", "Mitchell", "Nathan", "Brodie", "Kane", "Jarrod",
        "Bradley", "Liam", "Ethan", "Harrison", "Angus", "Hamish", "Darcy", "Blake", "Corey",
        "Shane", "Darren", "Craig", "Wayne", "Troy", "Todd", "Matt", "Josh", "Dean",
    ),
    "NZ": (
        "Tama", "Nikau", "Wiremu", "Rawiri", "Manaia", "Ari", "Hemi", "Jack", "Oliver", "Liam",
        "Lachlan", "Hamish", "Angus", "Ben", "Sam", "Josh", "Finn", "Blair", "Grant", "Craig",
        "Brent", "Glen", "Kieran", "Logan", "Riley", "Toby", "Stu",
    ),
}  # fmt: skip

CITIES: dict[str, tuple[tuple[str, str], ...]] = {
    "NL": (
        ("Amsterdam", "NL-NH"), ("Rotterdam", "NL-ZH"), ("Den Haag", "NL-ZH"), ("Utrecht", "NL-UT"),
        ("Eindhoven", "NL-NB"), ("Groningen", "NL-GR"), ("Nijmegen", "NL-GE"), ("Zwolle", "NL-OV"),
    ),
    "BE": (
        ("Antwerpen", "BE-VAN"), ("Gent", "BE-VOV"), ("Brussel", "BE-BRU"), ("Leuven", "BE-VBR"),
        ("Brugge", "BE-VWV"), ("Hasselt", "BE-VLI"), ("Mechelen", "BE-VAN"), ("Kortrijk", "BE-VWV"),
    ),
    "DE": (
        ("Berlin", "DE-BE"), ("Hamburg", "DE-HH"), ("München", "DE-BY"), ("Köln", "DE-NW"),
        ("Frankfurt am Main", "DE-HE"), ("Stuttgart", "DE-BW"), ("Leipzig", "DE-SN"),
        ("Bremen", "DE-HB"),
    ),
    "AT": (
        ("Wien", "AT-9"), ("Graz", "AT-6"), ("Linz", "AT-4"), ("Salzburg", "AT-5"),
        ("Innsbruck", "AT-7"), ("Klagenfurt", "AT-2"), ("St. Pölten", "AT-3"), ("Bregenz", "AT-8"),
    ),
    "CH": (
        ("Zürich", "CH-ZH"), ("Bern", "CH-BE"), ("Basel", "CH-BS"), ("Luzern", "CH-LU"),
        ("St. Gallen", "CH-SG"), ("Winterthur", "CH-ZH"), ("Zug", "CH-ZG"), ("Chur", "CH-GR"),
    ),
    "LU": (
        ("Luxembourg", "LU-LU"), ("Esch-sur-Alzette", "LU-ES"), ("Differdange", "LU-ES"),
        ("Dudelange", "LU-ES"), ("Ettelbruck", "LU-DI"), ("Diekirch", "LU-DI"),
        ("Echternach", "LU-EC"), ("Wiltz", "LU-WI"),
    ),
    "IT": (
        ("Roma", "IT-62"), ("Milano", "IT-25"), ("Napoli", "IT-72"), ("Torino", "IT-21"),
        ("Bologna", "IT-45"), ("Firenze", "IT-52"), ("Palermo", "IT-82"), ("Verona", "IT-34"),
    ),
    "FR": (
        ("Paris", "FR-IDF"), ("Lyon", "FR-ARA"), ("Marseille", "FR-PAC"), ("Toulouse", "FR-OCC"),
        ("Bordeaux", "FR-NAQ"), ("Lille", "FR-HDF"), ("Nantes", "FR-PDL"), ("Rennes", "FR-BRE"),
    ),
    "ES": (
        ("Madrid", "ES-MD"), ("Barcelona", "ES-CT"), ("Valencia", "ES-VC"), ("Sevilla", "ES-AN"),
        ("Málaga", "ES-AN"), ("Bilbao", "ES-PV"), ("Zaragoza", "ES-AR"), ("Palma", "ES-IB"),
    ),
    "PL": (
        ("Warszawa", "PL-14"), ("Kraków", "PL-12"), ("Wrocław", "PL-02"), ("Gdańsk", "PL-22"),
        ("Poznań", "PL-30"), ("Łódź", "PL-10"), ("Katowice", "PL-24"), ("Lublin", "PL-06"),
    ),
    "DK": (
        ("København", "DK-84"), ("Aarhus", "DK-82"), ("Odense", "DK-83"), ("Aalborg", "DK-81"),
        ("Roskilde", "DK-85"), ("Esbjerg", "DK-83"),
    ),
    "FI": (
        ("Helsinki", "FI-18"), ("Espoo", "FI-18"), ("Tampere", "FI-11"), ("Turku", "FI-19"),
        ("Oulu", "FI-14"), ("Jyväskylä", "FI-08"), ("Kuopio", "FI-15"),
    ),
    "NO": (
        ("Oslo", "NO-03"), ("Bergen", "NO-46"), ("Trondheim", "NO-50"), ("Stavanger", "NO-11"),
        ("Kristiansand", "NO-42"), ("Tromsø", "NO-54"), ("Drammen", "NO-30"),
    ),
    "SE": (
        ("Stockholm", "SE-AB"), ("Göteborg", "SE-O"), ("Malmö", "SE-M"), ("Uppsala", "SE-C"),
        ("Västerås", "SE-U"), ("Örebro", "SE-T"), ("Linköping", "SE-E"), ("Umeå", "SE-AC"),
    ),
    "GB": (
        ("London", "GB-ENG"), ("Manchester", "GB-ENG"), ("Bristol", "GB-ENG"), ("Leeds", "GB-ENG"),
        ("Edinburgh", "GB-SCT"), ("Glasgow", "GB-SCT"), ("Cardiff", "GB-WLS"),
        ("Belfast", "GB-NIR"),
    ),
    "IE": (
        ("Dublin", "IE-D"), ("Cork", "IE-CO"), ("Galway", "IE-G"), ("Limerick", "IE-LK"),
        ("Waterford", "IE-WD"), ("Kilkenny", "IE-KK"), ("Sligo", "IE-SO"),
    ),
    "US": (
        ("New York", "US-NY"), ("Los Angeles", "US-CA"), ("Chicago", "US-IL"), ("Austin", "US-TX"),
        ("Seattle", "US-WA"), ("Denver", "US-CO"), ("Miami", "US-FL"), ("Boston", "US-MA"),
    ),
    "CA": (
        ("Toronto", "CA-ON"), ("Vancouver", "CA-BC"), ("Montréal", "CA-QC"), ("Calgary", "CA-AB"),
        ("Ottawa", "CA-ON"), ("Halifax", "CA-NS"), ("Winnipeg", "CA-MB"),
    ),
    "AU": (
        ("Sydney", "AU-NSW"), ("Melbourne", "AU-VIC"), ("Brisbane", "AU-QLD"), ("Perth", "AU-WA"),
        ("Adelaide", "AU-SA"), ("Hobart", "AU-TAS"), ("Canberra", "AU-ACT"),
    ),
    "NZ": (
        ("Auckland", "NZ-AUK"), ("Wellington", "NZ-WGN"), ("Christchurch", "NZ-CAN"),
        ("Hamilton", "NZ-WKO"), ("Tauranga", "NZ-BOP"), ("Dunedin", "NZ-OTA"), ("Nelson", "NZ-NSN"),
    ),
}  # fmt: skip


def first_names(country: str, gender: str) -> tuple[str, ...]:
    return (FEMALE_NAMES if gender == "female" else MALE_NAMES)[country]
